"""Response documents of ``/api/v1`` and the one error shape.

These models document what the services return (``tests/service/test_openapi.py``
checks every response against them); the services build the JSON themselves.

>>> sorted(ErrorBody.model_json_schema()["properties"])
['code', 'field', 'limit', 'message', 'position', 'roll', 'status', 'turn', 'why']
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from daily.service.http.contract.fields import omittable

DayStatus = Literal["open", "revealed", "upcoming"]
Mode = Literal["ranked", "practice"]
Dice = list[int]
TopMark = Literal["provisional", "no_passkey"]


class Doc(BaseModel):
    """A response document (fields beyond these may be added, never removed)."""

    model_config = ConfigDict(extra="allow")


class ErrorBody(Doc):
    """What went wrong, and where: the field, and the 1-based turn and roll of a game."""

    status: int
    code: str = Field(examples=["invalid_field", "illegal_move"])
    message: str
    field: str = omittable(description="the field at fault, when there is one")
    turn: int = omittable(ge=1)
    roll: int = omittable(ge=1)
    why: dict[str, str | int] = omittable(
        description="an illegal move's machine reason, e.g. "
        '{"code": "joker_upper_open", "box": "sixes"}',
    )
    position: int = omittable(description="a stale_position's current position")
    limit: Literal["players_per_address", "players_per_network"] = omittable(
        description="the limit a too_many_players refusal hit")


class Error(Doc):
    """Every error of the API: ``{"error": {...}}``; a ``stale_position`` has the current
    game ``state`` beside it."""

    error: ErrorBody
    state: Game = omittable(description="the current game (stale_position)")


class Health(Doc):
    """Whether the service and its Redis answer."""

    status: Literal["ok", "degraded"]
    redis: Literal["ok", "down"]


class Player(Doc):
    """A player as others see them."""

    id: str
    name: str


class CreatedPlayer(Doc):
    """A new player and their secret token (shown only once)."""

    player: Player
    token: str = Field(description="shown once; keep it")


class PowChallenge(Doc):
    """A one-time proof-of-work challenge for creating a player (``bits`` 0: none is
    needed): find a ``nonce`` such that SHA-256(``challenge:nonce``) starts with ``bits``
    zero bits, then send both in ``POST /players`` within ``expires_in`` seconds, from
    the same network."""

    challenge: str = Field(pattern="^[0-9a-f]{32}$")
    bits: int = Field(ge=0, le=26)
    expires_in: int = Field(ge=1, description="seconds the challenge may be answered in")


class Stats(Doc):
    """A player's ranked statistics."""

    games: int
    average: float | None
    best: int | None
    current_streak: int
    longest_streak: int
    by_ruleset: dict[str, Any] = omittable()


class HistoryEntry(Doc):
    """One ranked game of a player."""

    date: str
    ruleset: str
    total: int
    code: str


class Me(Doc):
    """You, your statistics and your ranked history."""

    id: str
    name: str
    stats: Stats
    history: list[HistoryEntry]
    public_top: PublicTop = omittable(
        description="your days of play and whether your games stand on the public top")


class Played(Doc):
    """Your ranked game of a day set."""

    game_id: str
    over: bool
    total: int | None
    code: str | None


class DaySet(Doc):
    """One (date, ruleset) of the calendar."""

    date: str
    ruleset: str
    status: DayStatus
    opens_at: str
    closes_at: str
    played: Played | None
    special: bool = Field(description="the weekly special of its date")


class Special(Doc):
    """The weekly special: a third daily set on one weekday, rotating."""

    weekday: str
    rotation: list[str]


class Today(Doc):
    """The open dates and every set around them."""

    now: str
    open_dates: list[str]
    rulesets: list[str]
    special: Special | None
    next_reveal_at: str
    sets: list[DaySet]


class CardBox(Doc):
    """A box of the score card (``points`` null while empty)."""

    box: str
    points: int | None


class Upper(Doc):
    """The upper section and its bonus."""

    total: int
    threshold: int
    bonus: int
    bonus_value: int
    to_go: int


class Why(Doc):
    """Why a box may not be chosen, in machine form (the client words it)."""

    code: str
    box: str


class Choice(Doc):
    """A box the dice showing could fill, and whether the rules allow it now."""

    box: str
    points: int
    legal: bool
    reason: str | None
    why: Why | None


class Turn(Doc):
    """A scored turn: its rolls, the holds between them, the box and points."""

    turn: int
    rolls: list[Dice]
    holds: list[str]
    box: str
    points: int
    bonus: int


class OtherTurn(Doc):
    """A scored turn of a computer opponent or a challenge's rival: on the dice of a day
    still open, its box and points only (``rolls``, ``holds`` and ``dice`` null)."""

    turn: int
    rolls: list[Dice] | None = Field(description="null while the day is open")
    holds: list[str] | None = Field(description="null while the day is open")
    dice: Dice | None = Field(description="the dice it ended with; null while the day is "
                              "open")
    box: str
    points: int
    bonus: int


def _dice_hidden() -> Any:
    return Field(description="true on the dice of a day still open: the turns have their "
                 "boxes and points, not their dice, until the day is revealed")


class Opponent(Doc):
    """A computer opponent, up to your scored turns."""

    level: str
    total: int
    turns: list[OtherTurn]
    over: bool
    expected: float | None
    heuristic: bool
    dice_hidden: bool = _dice_hidden()


class Rival(Doc):
    """The entry to beat in a challenge, up to your scored turns."""

    name: str
    total: int
    turns: list[OtherTurn]
    over: bool
    dice_hidden: bool = _dice_hidden()


class GameChallenge(Doc):
    """The challenge a game is an entry of."""

    code: str
    rival: Rival | None


class Review(Doc):
    """A ranked game held for the fair-play review, as its player sees it
    (docs/fairplay.md); ``null`` when the game is not in review or was cleared."""

    state: Literal["pending_review", "under_review", "disqualified"] = Field(
        description="pending_review: the game would enter the top of its board and shows "
        "there once an operator clears it; under_review: held by the check; disqualified")
    reason: str = Field(description="why, in plain words")
    reason_code: Literal["foresight", "strict", "ceiling", "unchecked", "scout_link",
                         "residual", "copy", "young_link", "reveal_cover",
                         "foresight_record"] = Field(
        description="foresight: the likelihood test; strict: the stricter test at the top "
        "of the board; ceiling: the game scored the day's ceiling (the check without a "
        "strategy table); unchecked: the check could not run; scout_link: the game follows "
        "a game that showed the day's dice without playing them; residual: the player's "
        "scores keep beating optimal play on the same dice across days; copy: the game took "
        "the same decisions on the day's dice as an earlier game of another player; "
        "young_link: new or provisional players from the same network played the day; "
        "reveal_cover: another player's game showed every die this game gained from; "
        "foresight_record: the player's games keep taking decisions only the dice to come "
        "explain, across days")
    decisions: int | None = Field(description="decisions of the game that were tested")
    optimal_in_hindsight: int | None = Field(
        description="of those, how many were the best with the dice to come known")
    total: int


def _ceiling() -> Any:
    """The day's perfect-information ceiling once computed after the reveal, else null."""
    return Field(description="the best score possible with every dice of the day known "
                 "(computed after the reveal; null until then)")


class AcceptedDoc(Doc):
    """What a receipt signs: the game as the service accepted it (``daily.audit.leaf``)."""

    code: str
    player_id: str
    ruleset: str
    date: str
    log: str = Field(description="the move log, compact daily-log/1 text")
    score: int
    accepted_at: str = Field(description="RFC 3339 UTC with milliseconds")


def _receipt() -> Any:
    return Field(description="a ranked game's receipt: '<key id>:<128 hex Ed25519 "
                 "signature>' by the results key over the accepted game (docs/protocol.md)")


class Finished(Doc):
    """The result of a finished game."""

    total: int
    code: str
    share_text: str
    url: str
    rank: int | None = Field(description="standard competition rank on the day's board "
                             "(equal totals share a rank: 1, 1, 3); null until recorded")
    percentile: float | None = Field(
        description="share of the board ranked at or below you, rounded down to 0.1")
    better_than: float | None = Field(
        description="share of the board with a lower total, rounded down to 0.1")
    top: float | None = Field(
        description="share of the board ranked at or above you, rounded up to 0.1")
    players: int | None
    tied: int | None = Field(
        description="results sharing your rank, yours included (1: no tie); null until "
        "recorded")
    streak: int | None = Field(
        description="your daily streak with this game counted (ranked games; null in the "
        "answer of the finishing move and for practice)")
    finished_at: str
    review: Review | None = Field(description="a ranked game in the fair-play review")
    receipt: str | None = _receipt()
    accepted: AcceptedDoc | None = Field(description="what the receipt signs (ranked)")


class Game(Doc):
    """The state of a game: the dice showing, the card, what you may do."""

    id: str
    mode: Mode
    ruleset: str
    options: dict[str, Any]
    date: str | None
    position: int = Field(ge=0, description="decisions applied so far (daily-move/1)")
    turn: int = Field(ge=1)
    turns: int
    roll: int = Field(ge=0, description="rolls made so far in this turn (0 once over)")
    max_rolls: int
    rolls_left: int = Field(ge=0)
    dice: Dice
    turn_rolls: list[Dice]
    over: bool
    card: list[CardBox]
    choices: list[Choice]
    extra_bonus: int
    extra_count: int
    upper: Upper
    total: int
    history: list[Turn] = omittable(
        description="every scored turn; left out of the answer of a roll or a score that "
        "does not finish the game (the GET of the game has it)")
    log: dict[str, Any] = omittable(
        description="daily-log/1 so far (docs/protocol.md); left out where history is")
    last_turn: Turn | None = Field(
        default=None, description="only in the answer of a roll or a score that does not "
        "finish the game: the turn that move filled (null after a roll)")
    result: Finished | None
    opponents: list[Opponent]
    challenge: GameChallenge | None


class ResultPlayer(Doc):
    """Who played a shared result."""

    name: str


class Result(Doc):
    """A shared result; ``history`` and ``log`` only once the dice are revealed."""

    code: str
    ruleset: str
    options: dict[str, Any]
    date: str | None
    mode: Mode
    player: ResultPlayer
    total: int
    card: list[CardBox]
    upper: Upper
    extra_bonus: int
    extra_count: int
    finished_at: str
    revealed: bool
    rank: int | None
    percentile: float | None
    better_than: float | None
    top: float | None
    players: int | None
    tied: int | None = Field(
        description="results sharing your rank, yours included (1: no tie); null until "
        "recorded")
    share_text: str
    url: str
    marks: list[Literal["good", "fair", "zero"]] = Field(
        description="how well each box of the card scored, in card order")
    review: Review | None = Field(description="a ranked game in the fair-play review")
    ceiling: int | None = _ceiling()
    receipt: str | None = _receipt()
    accepted: AcceptedDoc = omittable(description="what the receipt signs; only once the "
                                      "dice are revealed")
    history: list[Turn] = omittable(description="only once the dice are revealed")
    log: dict[str, Any] = omittable(description="only once the dice are revealed")


class BoardRow(Doc):
    """A row of a leaderboard (``player.name`` is the player's current name)."""

    rank: int = Field(description="standard competition rank (1, 1, 3)")
    player: Player
    score: int
    finished_at: float
    code: str
    game_id: str
    marks: list[TopMark] = Field(
        description="why the game does not stand on the public top: provisional (its "
        "player has fewer than DAILY_PROVISIONAL_DAYS days of ranked play), no_passkey "
        "(its player has no passkey and the public top requires one); empty when it "
        "stands (docs/fairplay.md)")


class LeftOut(Doc):
    """The games the public top leaves out: ranked above its last row (all of those
    read, when the top is shorter than its limit) without standing on it; a game may be
    both provisional and without a passkey."""

    games: int = Field(ge=0)
    provisional: int = Field(ge=0)
    no_passkey: int = Field(ge=0)


class PublicTop(Doc):
    """Your days of ranked play and whether your games stand on the public top of the
    boards (docs/fairplay.md, "Provisional players and the public top")."""

    ranked_days: int = Field(ge=0, description="days of the service clock with a ranked "
                             "game finished (the dates open at one moment count once)")
    first_ranked_date: str | None = Field(description="the first of them (YYYY-MM-DD)")
    provisional: bool = Field(description="fewer than provisional_days days of play: your "
                              "games count for you but stay off the public top")
    provisional_days: int = Field(ge=0)
    days_left: int = Field(ge=0, description="days of play until you are not provisional")
    passkey: bool = Field(description="you have registered a passkey")
    passkey_required: bool = Field(description="the public top requires a passkey")
    stands: bool = Field(description="your games stand on the public top")


class Standing(Doc):
    """Your place on a board (``daily/standings.py`` defines every figure)."""

    rank: int = Field(description="standard competition rank: equal totals share a rank "
                      "and the next rank skips (1, 1, 3)")
    percentile: float = Field(
        description="share of the board ranked at or below you, rounded down to 0.1 "
        "(every leader 100.0)")
    score: int
    better_than: float = Field(
        description="share of the board with a lower total, rounded down to 0.1: "
        "\"better than 97% of today's players\"")
    top: float = Field(
        description="share of the board ranked at or above you, rounded up to 0.1: "
        "\"top 3%\"")
    tied: int = Field(ge=1, description="results sharing your rank, yours included "
                      "(1: no tie)")
    game_id: str = Field(description="your game on the board (your row in top and around)")


class Bin(Doc):
    """A bar of the score histogram."""

    start: int = Field(alias="from")
    to: int
    count: int


class Histogram(Doc):
    """Scores in bins of ``bin_width`` points."""

    bin_width: int
    bins: list[Bin]


class Leaderboard(Doc):
    """The board of a day set."""

    date: str
    ruleset: str
    frozen: bool
    players: int
    top: list[BoardRow]
    me: Standing | None
    around: list[BoardRow] = Field(
        description="the rows around you, yours among them (with its marks: why your game "
        "is not on the public top); your rank and percentile count every game")
    histogram: Histogram
    par: dict[str, Any] | None
    ceiling: int | None = _ceiling()
    review: Review | None = Field(
        description="your game of this set while it is in the fair-play review (it is then "
        "not on the board: me is null)")
    left_out: LeftOut = omittable(description="the games the public top leaves out")
    top_open: bool = omittable(
        description="no game of the board stands on the public top (a new deployment): "
        "the top shows the best games as they are, each with its marks")
    provisional_days: int = omittable(
        ge=0, description="days of ranked play before a player's games stand on the top")


class ResultsKeyDoc(Doc):
    """The results key a ``day/2`` descriptor names (and signs)."""

    id: str = Field(description="16 lowercase hex: the key id of public_key")
    public_key: str = Field(description="64 lowercase hex: the raw Ed25519 public key")


class Day(Doc):
    """A signed day descriptor (``docs/protocol.md``); ``seed`` once revealed."""

    version: Literal["day/2", "day/1"]
    ruleset: str
    options: dict[str, Any]
    date: str
    generator: str
    commitment: str
    key_id: str
    results_key: ResultsKeyDoc = omittable(
        description="day/2: the results key that signs the day's receipts and log heads; "
        "a receipt or head of the day signed by any other key is refused")
    signature: str
    status: DayStatus
    opens_at: str
    closes_at: str
    seed: str = omittable(description="only once revealed")
    fairplay_key: str = omittable(
        description="only once revealed: the key of the day's fair-play parameters")
    par: dict[str, Any] | None = Field(default=None)


class Days(Doc):
    """Descriptors of a range of dates; ``next`` starts the following page."""

    days: list[Day]
    next: str | None = Field(
        description="the `from` of the next page when the range spans more than 31 days"
    )


class PublicKey(Doc):
    """A public key: it verifies descriptors, or receipts and the days' log heads."""

    id: str
    algorithm: Literal["Ed25519"]
    public_key: str
    created: str | None
    active: bool = Field(description="the current key of its purpose")
    purpose: Literal["descriptors", "results"] = Field(
        description="descriptors: signs day descriptors; results: signs receipts and the "
                    "signed heads of the days' results logs")
    vkey: str = omittable(description="a results key: its C2SP signed-note verifier key, "
                                      "which signs the days' checkpoints")


class Keys(Doc):
    """Every key that signed a descriptor, a receipt or a log head."""

    keys: list[PublicKey]
    witnesses: list[str] = omittable(
        description="the vkeys of the witnesses (DAILY_WITNESSES) whose cosignatures the web "
                    "page requires on a day's checkpoint")


class LogHead(Doc):
    """A signed head of a day's results log (``daily-results-head/v1``)."""

    version: Literal["daily-results-head/v1"]
    date: str
    ruleset: str
    size: int = Field(description="the number of leaves")
    root: str = Field(description="the RFC 6962 Merkle tree hash, 64 hex")
    time: str = Field(description="when it was signed, RFC 3339 UTC with milliseconds")
    key_id: str = Field(description="the results key that signed it (GET /keys)")
    signature: str = Field(description="128 hex Ed25519 signature")


class LeafDecision(Doc):
    """A fair-play decision in the log."""

    status: Literal["cleared", "held", "disqualified", "pending"]
    reason: str | None


class LogLeaf(Doc):
    """One leaf of a day's results log (one line of ``GET .../log``)."""

    version: Literal["daily-results-leaf/v1"]
    kind: Literal["result", "decision"]
    decision: LeafDecision
    accepted: AcceptedDoc = omittable(description="a result leaf: the accepted game")
    receipt: str = omittable(description="a result leaf: its receipt")
    name: str | None = omittable(description="a result leaf: the player's name at the close")
    code: str = omittable(description="a decision leaf: the game it decides")
    decided_at: str = omittable(description="a decision leaf: when")


class LogProof(Doc):
    """A game's leaf, its receipt inside it, and its inclusion proof against a head."""

    version: Literal["daily-results-proof/v1"]
    leaf: LogLeaf
    index: int = Field(description="the leaf's 0-based index in the log")
    audit_path: list[str] = Field(description="RFC 6962 audit path, hex, leaf side first")
    head: LogHead


class LogConsistency(Doc):
    """The RFC 6962 proof that a head's log is a prefix of a later head's."""

    version: Literal["daily-results-consistency/v1"]
    old_size: int
    new_size: int
    path: list[str]
    old: LogHead | None = Field(description="the older head; null from the empty tree "
                                "(from=0), whose root is SHA-256 of nothing")
    new: LogHead


class Action(Doc):
    """A hold or a box, with its expected final score under optimal play."""

    kind: Literal["keep", "box"]
    value: float
    text: str
    hold: str = omittable()
    kept: Dice = omittable()
    box: str = omittable()
    points: int = omittable()
    bonus: int = omittable()


class HintAnswer(Doc):
    """The best action now and the next best ones."""

    best: Action
    alternatives: list[Action]
    rolls_left: int
    dice: Dice
    total: int
    turn: int
    roll: int


class Decision(Doc):
    """One decision of a game against optimal play."""

    turn: int
    roll: int
    dice: Dice
    rolls_left: int
    chosen: Action
    best: Action
    loss: float


class Analysis(Doc):
    """``daily-analysis/1``: every decision against optimal play."""

    format: Literal["daily-analysis/1"]
    ruleset: str
    complete: bool
    total: int
    optimal_expected: float
    expected_loss: float
    rating: float
    luck: float | None
    optimal_total: int | None
    optimal_decisions: int
    decisions: list[Decision]
    mistakes: list[dict[str, Any]]
    text: list[str]


class OpenApi(Doc):
    """An OpenAPI 3.1 document."""

    openapi: str
    info: dict[str, Any]
    paths: dict[str, Any]


class ChallengeLink(Doc):
    """A new challenge: its code and the link to share."""

    code: str
    url: str


class Challenge(Doc):
    """A challenge's entries; the turn-by-turn comparison once your entry is finished."""

    code: str
    url: str
    ruleset: str
    options: dict[str, Any]
    date: str | None
    entries: list[dict[str, Any]]


class Group(Doc):
    """A friends' league: its code, name, invite link and members (more on
    ``GET /groups/{code}``)."""

    code: str
    name: str
    url: str = Field(description="the invite link: the web app's page that offers to join")


class GroupInvite(Doc):
    """What an invite link shows anyone who has it."""

    code: str
    name: str
    url: str
    members: int
    member: bool = Field(description="you are in the group already")
    inviter: str = Field(description="the name of the player who made the group (who "
                         "sends its invite link)")


class Groups(Doc):
    """Your groups."""

    groups: list[dict[str, Any]]
