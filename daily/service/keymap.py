"""The Redis key map: every key the service, the workers and the tools write.

Every key starts with the configured prefix ``P`` (``DAILY_KEY_PREFIX``, ``dd:`` by
default), so tests and several deployments can share one server. Keys in braces are
Redis Cluster hash tags: the keys of one board, or of one player's statistics, share a
slot so that one Lua script can touch them all; ``{r<N>}`` is the tag of shard ``N``
(:mod:`daily.service.shards`, really ``{rN.k}``): a game, the ranked index that points
at it and the result stream it finishes into share it, so the ranked start, the moves
and the finish transaction each stay in one slot. Build keys only with the functions of
this module; add a row to the table when you add a key.

=====================================  =======  =============================================
key                                    type     what, and how long it lives
=====================================  =======  =============================================
``P game:{r<N>}:<id>``                 STRING   JSON record of a game (:mod:`daily.service.
                                                games.record`); ranked: ``DAILY_RANKED_DAYS``
                                                (400) days after its day closes (``EXAT``);
                                                practice: 30 days after its last write
``P ranked:{r<N>}:<date>:<ruleset>:<player>``
                                       STRING   the id of the player's ranked game of a day
                                                set; written once (Lua); expires with the
                                                ranked game
``P started:{r<N>}:<date>:<ruleset>``  ZSET     game id -> start time of the ranked games of a
                                                day set started in shard ``N`` (the scouts,
                                                finished or not, are found there); 8 days
                                                after the day closes
``P code:<code>``                      STRING   the game id of a result code; expires with
                                                its game (ranked or practice, as above)
``P account:<player>``                 HASH     a player: name, created, the first token's
                                                hash, last day of use;
                                                ``DAILY_PLAYER_DAYS`` (180) days after the
                                                last day of use (sliding)
``P passkeys:{<player>}``              HASH     credential id (base64url) -> JSON of a WebAuthn
                                                passkey (:mod:`daily.service.players.
                                                passkeys`); like the account
``P tokens:{<player>}``                HASH     SHA-256 of a token's secret -> JSON
                                                ``{"created","used"}`` of a browser signed
                                                in with a passkey (:mod:`daily.service.
                                                players.devices`); like the account, and
                                                each token too (at most 10)
``P passkey:challenge:<ticket>``       STRING   JSON of a WebAuthn challenge handed out (its
                                                ceremony, its player); taken once
                                                (``GETDEL``); 3 min (``EX``)
``P descriptor:<date>:<ruleset>``      STRING   the first signed ``day/2`` descriptor
                                                (``SET NX``); forever
``P par:<date>:<ruleset>``             STRING   JSON ``{"easy","medium","hard"}`` of the par
                                                job (``SET NX``); forever
``P lb:{<date>:<ruleset>}:<part>``     various  one leaderboard (parts: ``rank`` ZSET,
                                                ``entries`` HASH, ``players`` HASH, ``hist``
                                                HASH, ``logs`` HASH, ``frozen`` STRING,
                                                ``final`` STRING, ``rolled`` HASH); forever,
                                                except ``logs``: 7 days after the archive
``P rebuild:lb:{<date>:<ruleset>}:*``  various  a board being rebuilt from its archive;
                                                renamed over the live board when complete
``P player:{<player>}:<part>``         various  ranked statistics (parts: ``games`` HASH,
                                                ``agg`` HASH, ``days`` ZSET, ``played``
                                                ZSET of the days of play on the service
                                                clock); like the account: renewed by each
                                                recorded game and each day of use
``P lb:{<date>:<ruleset>}:cleared``    SET      game ids an operator cleared for the public
                                                top (:mod:`daily.service.players.
                                                standing`); forever
``P results:{r<N>}``                   STREAM   finished ranked games not yet on their board
                                                (shard ``N``, :mod:`daily.service.
                                                results_stream`); each entry until applied
``P results:{r<N>}:open``              HASH     date -> results of that date not yet applied
``P results:{r<N>}:rejected``          HASH     game id -> a result the board refused; forever
``P ceiling:<date>:<ruleset>``         STRING   JSON ``{"ceiling","seconds"}`` of the ceiling
                                                job (``SET NX``); forever
``P fairplay:ceiling:<date>:<ruleset>``
                                       STRING   JSON ``{"ceiling","seconds"}`` computed ahead
                                                for the results path (:mod:`workers.ceilings`);
                                                secret until the reveal (never served);
                                                4 days (``EX``)
``P fairplay:hindsight:<date>:<ruleset>``
                                       STRING   the ceiling's table of values (zlib of
                                                int16), for the foresight test of the
                                                small rulesets (Yahtzee: 80 kB); secret
                                                like the above; 4 days (``EX``)
``P lb:{<date>:<ruleset>}:review``     HASH     game id -> JSON review entry of a held game
                                                (:mod:`daily.service.review.queue`); forever
``P lb:{<date>:<ruleset>}:signals``    HASH     checked / scout_like / reveal_unused /
                                                busy_network / scout_linked counts (``:seen``
                                                SET: game ids counted); forever
``P lb:{<date>:<ruleset>}:scouts``     HASH     game id -> JSON sighting of a finished scout
                                                (:mod:`daily.fairplay.scouting`); 8 days
``P lb:{<date>:<ruleset>}:young``      HASH     game id -> JSON of a young player's game
                                                (provisional, or created in the last two
                                                days: :mod:`daily.fairplay.links`); 8 days
``P fairplay:residual:{<player>}``     HASH     "<date> <ruleset>" -> the player's residual
                                                against optimal play that day (:mod:`daily.
                                                fairplay.residual`); 90 days after the last
                                                write
``P fairplay:foresight:{<player>}``    HASH     "<date> <ruleset>" -> the foresight test's
                                                statistic of the player's ranked game that
                                                day (:mod:`daily.fairplay.history.sequential`),
                                                "reset" -> the day set an operator's
                                                clearance reset the sum through; 400 days
                                                after the last write
``P review:index``                     HASH     game id -> "<date> <ruleset>" of its review
``P review:open``                      ZSET     held game ids by finish time (until decided)
``P review:postponed``                 HASH     game id -> JSON ``{"result", "at"}`` of a
                                                ranked game whose fair-play check waits for
                                                the consumer's engine (:mod:`daily.service.
                                                review.postponed`); until checked
``P lb:{<date>:<ruleset>}:unchecked``  SET      those games of the board: off the public top
                                                until checked
``P fairplay:origin:<player>``         STRING   "<day> <salted network hash>" of the
                                                player's creation; 2 days (``EX``)
``P fairplay:net:<day>:<hash>``        STRING   players created from a network that day;
                                                2 days (``EX``)
``P fairplay:salt:<day>``              STRING   the day's random salt of the network
                                                hashes and key of the proof-of-work
                                                challenges' MAC (``SET NX``); 2 days
``P pow:used:<challenge hash>``        STRING   a proof-of-work challenge already
                                                answered (SHA-256 of it); until the
                                                challenge expires, at most 5 min (``EX``)
``P rl:new:{<network>}:ip:<ip>``       STRING   new players from an IP; one window (``EX``)
``P rl:new:{<network>}:net``           STRING   new players from a /24 or /48; one window
``P challenge:<code>``                 STRING   JSON of a friend challenge (its seed stays on
                                                the server); forever
``P challenge:<code>:entries``         HASH     player id -> game id of each entry; forever
``P challenge-of:<game id>``           STRING   the challenge made from that game's result
``P group:<code>``                     STRING   JSON of a group (name, owner); forever
``P group:<code>:members``             ZSET     player id -> time joined
``P player-groups:<player>``           SET      the codes of a player's groups
``P rl:<kind>:player:<player>``        STRING   read or write requests of a verified player;
                                                one window of the limit (``EXPIRE``)
``P rl:<kind>:ip:<ip>``                STRING   read or write requests of an address
                                                without a verified player; one window
``P rl:all:ip:<ip>``                   STRING   every request of an address; one window
``P audit:{<date>:<ruleset>}:<part>`` various  the day's results log (:mod:`daily.service.
                                                audit.day_log`; parts: ``heads`` LIST of
                                                signed heads, ``hashes`` STRING of leaf
                                                hashes, ``log`` LIST of zlib chunks of
                                                leaf lines, ``index`` HASH code -> leaf);
                                                forever (a copy beside the archive);
                                                ``new:hashes``, ``new:log``, ``new:index``:
                                                a log being sealed, renamed over them
``P push:sub:{<player>}``              STRING   JSON of the player's reminder subscription
                                                (:mod:`daily.service.reminders.
                                                subscriptions`: endpoint, keys, hour, time
                                                zone, reminders); ``DAILY_PUSH_DAYS`` (60)
                                                days after its last renewal (``EX``)
``P push:due``                         ZSET     "<player> <kind>" -> when its next reminder
                                                is due (epoch seconds); a member goes with
                                                its subscription
``P lock:<name>``                      STRING   a lock (``scheduler``, ``rollover``,
                                                ``audit:<date>:<ruleset>``) with a
                                                timeout, held by one process
``rq:*``                               various  RQ's own queues, jobs and registries (not
                                                prefixed; named by RQ)
=====================================  =======  =============================================

>>> game("dd:", "g_x"), ranked("dd:", "2026-11-29", "yahtzee", "p_1")
('dd:game:{r2.43}:g_x', 'dd:ranked:{r3.40}:2026-11-29:yahtzee:p_1')
>>> board("t:", "2026-11-29", "yahtzee", "rank"), player_stats("t:", "p_1", "agg")
('t:lb:{2026-11-29:yahtzee}:rank', 't:player:{p_1}:agg')
"""

from __future__ import annotations

import datetime as dt

from daily.service import shards

#: The prefix under which a board is rebuilt before it replaces the live one.
REBUILD = "rebuild:"


def _date(day: dt.date | str) -> str:
    return day if isinstance(day, str) else day.isoformat()


def game(prefix: str, game_id: str) -> str:
    """The record of a game, in its shard's slot (:mod:`daily.service.shards`)."""
    return f"{prefix}game:{shards.tag(shards.shard_of(game_id))}:{game_id}"


def ranked(prefix: str, date: dt.date | str, ruleset: str, player_id: str) -> str:
    """The id of a player's ranked game of one day set, in the player's shard's slot."""
    shard = shards.tag(shards.shard_of(player_id))
    return f"{prefix}ranked:{shard}:{_date(date)}:{ruleset}:{player_id}"


def started(prefix: str, date: dt.date | str, ruleset: str, shard: int) -> str:
    """The ranked games of a day set started in one shard, by start time.

    >>> started("dd:", "2026-11-29", "yahtzee", 3)
    'dd:started:{r3.40}:2026-11-29:yahtzee'
    """
    return f"{prefix}started:{shards.tag(shard)}:{_date(date)}:{ruleset}"


def code(prefix: str, result_code: str) -> str:
    """The game id behind a result code."""
    return f"{prefix}code:{result_code}"


def account(prefix: str, player_id: str) -> str:
    """A player's account."""
    return f"{prefix}account:{player_id}"


def passkeys(prefix: str, player_id: str) -> str:
    """A player's passkeys (WebAuthn credentials), in the slot of the player's statistics.

    >>> passkeys("dd:", "p_1")
    'dd:passkeys:{p_1}'
    """
    return f"{prefix}passkeys:{{{player_id}}}"


def device_tokens(prefix: str, player_id: str) -> str:
    """The tokens of the browsers a player signed in with a passkey, in the slot of the
    player's statistics.

    >>> device_tokens("dd:", "p_1")
    'dd:tokens:{p_1}'
    """
    return f"{prefix}tokens:{{{player_id}}}"


def passkey_challenge(prefix: str, ticket: str) -> str:
    """A WebAuthn challenge handed out and not yet answered, by its ticket.

    >>> passkey_challenge("dd:", "t1")
    'dd:passkey:challenge:t1'
    """
    return f"{prefix}passkey:challenge:{ticket}"


def descriptor(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The stored signed descriptor of a day set.

    >>> descriptor("dd:", dt.date(2026, 11, 29), "yahtzee")
    'dd:descriptor:2026-11-29:yahtzee'
    """
    return f"{prefix}descriptor:{_date(date)}:{ruleset}"


def par(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The par (bot totals) of a revealed day set.

    >>> par("dd:", "2026-11-29", "yahtzee")
    'dd:par:2026-11-29:yahtzee'
    """
    return f"{prefix}par:{_date(date)}:{ruleset}"


def board(prefix: str, date: dt.date | str, ruleset: str, part: str) -> str:
    """One part of a leaderboard (``rank``, ``entries``, ``players``, ...)."""
    return f"{prefix}lb:{{{_date(date)}:{ruleset}}}:{part}"


def audit(prefix: str, date: dt.date | str, ruleset: str, part: str) -> str:
    """One part of a day's results log, in the slot of the day's board.

    >>> audit("dd:", "2026-11-29", "yahtzee", "heads")
    'dd:audit:{2026-11-29:yahtzee}:heads'
    """
    return f"{prefix}audit:{{{_date(date)}:{ruleset}}}:{part}"


def player_stats(prefix: str, player_id: str, part: str) -> str:
    """One part of a player's statistics (``games``, ``agg``, ``days``, ``played``)."""
    return f"{prefix}player:{{{player_id}}}:{part}"


def results_stream(prefix: str, shard: int) -> str:
    """The results stream of one shard.

    >>> results_stream("dd:", 3), results_part("dd:", 3, "open")
    ('dd:results:{r3.40}', 'dd:results:{r3.40}:open')
    """
    return f"{prefix}results:{shards.tag(shard)}"


def results_part(prefix: str, shard: int, part: str) -> str:
    """A key beside a results stream (``open``, ``rejected``), in its hash slot."""
    return f"{results_stream(prefix, shard)}:{part}"


def challenge(prefix: str, challenge_code: str, part: str | None = None) -> str:
    """A friend challenge, or one of its parts (``entries``).

    >>> challenge("dd:", "CH-K7M2Q9XD"), challenge("dd:", "CH-K7M2Q9XD", "entries")
    ('dd:challenge:CH-K7M2Q9XD', 'dd:challenge:CH-K7M2Q9XD:entries')
    """
    return f"{prefix}challenge:{challenge_code}" + (f":{part}" if part else "")


def challenge_of(prefix: str, game_id: str) -> str:
    """The challenge made from a game's result."""
    return f"{prefix}challenge-of:{game_id}"


def group(prefix: str, group_code: str, part: str | None = None) -> str:
    """A group, or one of its parts (``members``).

    >>> group("dd:", "G-AB12CD", "members")
    'dd:group:G-AB12CD:members'
    """
    return f"{prefix}group:{group_code}" + (f":{part}" if part else "")


def player_groups(prefix: str, player_id: str) -> str:
    """The codes of a player's groups."""
    return f"{prefix}player-groups:{player_id}"


def rate_budget(prefix: str, kind: str, scope: str, who: str) -> str:
    """The request counter of one budget (``read``, ``write``) of a verified player or,
    without one, of a client address (``scope``: ``player``, ``ip``).

    >>> rate_budget("dd:", "write", "player", "p_1"), rate_budget("dd:", "read", "ip", "::1")
    ('dd:rl:write:player:p_1', 'dd:rl:read:ip:::1')
    """
    return f"{prefix}rl:{kind}:{scope}:{who}"


def rate_ceiling(prefix: str, ip: str) -> str:
    """The counter of every request from one client address."""
    return f"{prefix}rl:all:ip:{ip}"


def lock(prefix: str, name: str) -> str:
    """A named lock (``scheduler``, ``rollover``).

    >>> lock("dd:", "rollover")
    'dd:lock:rollover'
    """
    return f"{prefix}lock:{name}"


def ceiling(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The perfect-information ceiling of a revealed day set.

    >>> ceiling("dd:", "2026-11-29", "yahtzee")
    'dd:ceiling:2026-11-29:yahtzee'
    """
    return f"{prefix}ceiling:{_date(date)}:{ruleset}"


def fairplay_ceiling(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The ceiling of a day set computed ahead for the fair-play check: secret while the
    day is open (unlike :func:`ceiling`, which is public and written at the reveal).

    >>> fairplay_ceiling("dd:", "2026-11-29", "maxi-yatzy")
    'dd:fairplay:ceiling:2026-11-29:maxi-yatzy'
    """
    return f"{prefix}fairplay:ceiling:{_date(date)}:{ruleset}"


def fairplay_hindsight(prefix: str, date: dt.date | str, ruleset: str) -> str:
    """The ceiling's table of values of a day set, computed ahead (secret until the
    reveal).

    >>> fairplay_hindsight("dd:", "2026-11-29", "yahtzee")
    'dd:fairplay:hindsight:2026-11-29:yahtzee'
    """
    return f"{prefix}fairplay:hindsight:{_date(date)}:{ruleset}"


def review_index(prefix: str) -> str:
    """Game id -> where its review entry is."""
    return f"{prefix}review:index"


def review_open(prefix: str) -> str:
    """The held games, by finish time."""
    return f"{prefix}review:open"


def review_postponed(prefix: str) -> str:
    """Game id -> a ranked result whose fair-play check is postponed."""
    return f"{prefix}review:postponed"


def residuals(prefix: str, player_id: str) -> str:
    """A player's residuals against optimal play, per day set.

    >>> residuals("dd:", "p_1")
    'dd:fairplay:residual:{p_1}'
    """
    return f"{prefix}fairplay:residual:{{{player_id}}}"


def foresight_record(prefix: str, player_id: str) -> str:
    """A player's foresight statistics, per day set.

    >>> foresight_record("dd:", "p_1")
    'dd:fairplay:foresight:{p_1}'
    """
    return f"{prefix}fairplay:foresight:{{{player_id}}}"


def player_origin(prefix: str, player_id: str) -> str:
    """The day and salted hash of the network a player was created from."""
    return f"{prefix}fairplay:origin:{player_id}"


def network_count(prefix: str, day: str, network_hash: str) -> str:
    """Players created from one network on one day."""
    return f"{prefix}fairplay:net:{day}:{network_hash}"


def network_salt(prefix: str, day: str) -> str:
    """The random salt of one day's network hashes."""
    return f"{prefix}fairplay:salt:{day}"


def pow_used(prefix: str, challenge_hash: str) -> str:
    """A proof-of-work challenge already answered, by its SHA-256."""
    return f"{prefix}pow:used:{challenge_hash}"


def rate_new_player(prefix: str, network: str, ip: str | None = None) -> str:
    """New players from an address of ``network`` (or, without ``ip``, from the whole
    network); both counters of one address share the network's hash tag.

    >>> rate_new_player("dd:", "203.0.113.0/24", "203.0.113.7")
    'dd:rl:new:{203.0.113.0/24}:ip:203.0.113.7'
    >>> rate_new_player("dd:", "203.0.113.0/24")
    'dd:rl:new:{203.0.113.0/24}:net'
    """
    tail = f"ip:{ip}" if ip is not None else "net"
    return f"{prefix}rl:new:{{{network}}}:{tail}"


def push_subscription(prefix: str, player_id: str) -> str:
    """A player's reminder subscription (Web Push), in the slot of the player's statistics.

    >>> push_subscription("dd:", "p_1")
    'dd:push:sub:{p_1}'
    """
    return f"{prefix}push:sub:{{{player_id}}}"


def push_due(prefix: str) -> str:
    """The reminders by the time each is next due.

    >>> push_due("dd:")
    'dd:push:due'
    """
    return f"{prefix}push:due"
