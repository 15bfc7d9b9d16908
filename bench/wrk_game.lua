-- wrk script for bench/api_wrk.py: every connection plays ranked Yahtzee games of today,
-- as bench/api_throughput.py does (a new player per game; roll with hold 11000 while
-- rolls are left, then score the first legal box). Run it with as many threads as
-- connections (-t N -c N): each thread then drives exactly one connection, so its
-- request() and response() alternate. done() prints the roll and score calls per second
-- (player creation and game starts run but are not counted) and the unexpected answers.

local date = os.date("!%Y-%m-%d")
local step, token, game, position, rolls_left, box = "player", "", "", 0, 0, ""
moves, failures = 0, 0
local threads = {}

function setup(thread)
  table.insert(threads, thread)
end

local function json(extra)
  local headers = {["Content-Type"] = "application/json"}
  if token ~= "" then headers["Authorization"] = "Bearer " .. token end
  return headers
end

function request()
  if step == "player" then
    token = ""
    return wrk.format("POST", "/api/v1/players", json(), "{}")
  elseif step == "start" then
    return wrk.format("POST", "/api/v1/games", json(),
      '{"ruleset":"yahtzee","date":"' .. date .. '","mode":"ranked"}')
  elseif rolls_left > 0 then
    return wrk.format("POST", "/api/v1/games/" .. game .. "/roll", json(),
      '{"hold":"11000","position":' .. position .. '}')
  end
  return wrk.format("POST", "/api/v1/games/" .. game .. "/score", json(),
    '{"box":"' .. box .. '","position":' .. position .. '}')
end

function response(status, headers, body)
  if status ~= 200 and status ~= 201 then
    failures = failures + 1
    step = "player"
    return
  end
  if step == "player" then
    token = body:match('"token":"([^"]+)"')
    step = "start"
    return
  end
  if step == "start" then
    game = body:match('"id":"(g_[%w]+)"')
    step = "play"
  else
    moves = moves + 1
  end
  -- The fields the next request needs, each found from the document's start (they
  -- come first in it); the first legal box only before a score.
  position = tonumber(body:match('"position":(%d+)'))
  rolls_left = tonumber(body:match('"rolls_left":(%d+)'))
  if body:find('"over":true', 1, true) then
    step = "player"
  elseif rolls_left == 0 then
    local choices = body:find('"choices":', 1, true)
    box = body:match('"box":"([%w_.]+)","points":%-?%d+,"legal":true', choices) or ""
  end
end

function done(summary, latency, requests)
  local total, failed = 0, 0
  for _, thread in ipairs(threads) do
    total = total + thread:get("moves")
    failed = failed + thread:get("failures")
  end
  io.write(string.format("moves %d in %.3f s = %.1f moves/s, unexpected answers %d\n",
    total, summary.duration / 1e6, total / (summary.duration / 1e6), failed))
end
