// Interface strings in English and Italian, box and ruleset names, number formats.
// t("key", {n: 3}) fills {n}; an unknown key falls back to English, then to the key.

const STRINGS = {
  en: {
    skip: "Skip to content",
    nav_home: "Today", nav_boards: "Rankings", nav_practice: "Practice",
    nav_profile: "Profile", nav_rules: "Rules",
    lang_button: "IT", lang_label: "Passa all'italiano",
    loading: "Loading…",
    demo_note: "DEMO CLOCK: a day lasts {minutes} min here (demo time {now} UTC). Not the real competition.",
    hints_ready_in: "{game} hints ready in about {minutes} min",
    hints_building: "{game} hints are being prepared",
    home_title: "Today's dice",
    home_intro: "Everyone gets the same dice today. Your first game of each set counts.",
    next_day: "New dice in {time}",
    play: "Play", resume: "Resume", played: "Played: {total}", see_result: "See result",
    see_board: "Leaderboard",
    status_open: "Open", status_revealed: "Revealed", status_upcoming: "Upcoming",
    rules_link: "How to play",
    day_of: "{date}",
    turn_of: "Turn {turn} of {turns}",
    rolls_left: "{n} rolls left", rolls_left_1: "1 roll left", rolls_left_0: "No rolls left",
    roll: "Roll", roll_hint: "Tap dice to keep them, then roll again or choose a box.",
    all_kept: "All dice are kept: release one to roll.",
    die_label: "Die {i}: {face}", die_kept: "kept", die_free: "will be rerolled",
    kept: "Kept",
    keys_hint: "Keys: 1–{n} keep a die · Space or R roll · ↑↓ and Enter choose a box",
    card: "Score card", box: "Box", points: "Points",
    upper_progress: "Upper section: {total} / {threshold}",
    to_go: "{n} to go", bonus_won: "bonus won",
    upper_bonus: "Upper bonus", extra_bonus: "Extra bonus ({n}×)",
    total: "Total",
    in_column: "{box} (column {n})", column_total: "Column", column_weighted: "× weight",
    served_hint: "First roll: a combination scored now is served and scores more.",
    heuristic: "heuristic", heuristic_note: "Triple Yahtzee has no exact solution: these values come from a lookahead player.",
    special: "Weekly special",
    preview: "{box}: {points} points if chosen",
    filled: "{box}: {points} points, filled",
    disabled_box: "{box}: not allowed now, {reason}",
    scratch_q: "Score 0 in {box}? The box will be used up.",
    scratch_yes: "Score 0", cancel: "Cancel",
    reason_joker: "the joker rule says where this roll must go",
    reason_upper_open: "joker rule: five alike must go in {box} while it is open",
    reason_lower_first: "joker rule: with that upper box filled, five alike go in an open lower box",
    reason_forced_order: "forced order: fill the boxes top to bottom",
    reason_box_filled: "{box} is already filled",
    reason_no_rolls: "no rolls left in this turn",
    reason_keeps_all: "you kept every die: choose a box instead",
    reason_game_over: "the game is over",
    scored: "{box}: {points} points.",
    rolled: "Rolled {dice}.",
    game_over: "Game over",
    final_total: "Final score",
    rank_line: "Rank {rank} of {players}", rank_only: "Rank {rank}",
    percentile_line: "At or above {p}% of today's players",
    rank_pending: "Ranking your game…",
    ceiling_line: "Perfect game with foresight: {score}",
    review_title: "Under review",
    review_disqualified: "Disqualified after review",
    review_held_foresight: "{optimal} of your {decisions} decisions were exactly the best ones for dice that had not been shown yet, more often than fair play explains. Your score stays off the public board until an operator has looked at the game.",
    review_held_ceiling: "You scored {total}, the best score possible with these dice, which takes knowing dice that had not been shown yet. Your score stays off the public board until an operator has looked at the game.",
    review_disqualified_foresight: "{optimal} of your {decisions} decisions were exactly the best ones for dice that had not been shown yet. An operator looked at the game and it stays off the board.",
    review_disqualified_ceiling: "You scored {total}, the best score possible with these dice. An operator looked at the game and it stays off the board.",
    review_held_unchecked: "The fair-play check could not run on this game. Your score stays off the public board until an operator has looked at it.",
    review_disqualified_unchecked: "An operator looked at the game and it stays off the board.",
    copy_result: "Copy result", copied: "Result copied to the clipboard.",
    copy_failed: "Could not copy: select the text below and copy it.",
    share: "Share", result_link: "Result link",
    par: "Par (bots on the same dice)", par_easy: "easy", par_medium: "medium", par_hard: "hard",
    distribution: "Score distribution", your_score: "You: {score}",
    chart_label: "Histogram of {players} scores; your score {score} is marked.",
    players_n: "{n} players", players_so_far: "{n} players so far",
    practice_mode: "Practice", ranked_mode: "Ranked",
    board_title: "Leaderboard", top: "Top {n}", around_you: "Around you",
    rank: "Rank", player: "Player", score: "Score", you: "you",
    frozen: "Final", live: "Live",
    prev_day: "Previous day", next_day_btn: "Next day", date: "Date", ruleset: "Game",
    no_players: "Nobody has finished this set yet.",
    practice_title: "Practice",
    practice_intro: "Practice games are never ranked. Replay a revealed day or try random dice.",
    random_dice: "Random dice", revealed_days: "Revealed days", no_revealed: "No revealed days yet.",
    play_practice: "Practice this day",
    profile_title: "Profile", name: "Display name", save: "Save", saved: "Saved.",
    stats: "Stats", games: "Games", average: "Average", best: "Best",
    streak: "Current streak", longest: "Longest streak", history: "History",
    no_history: "No games yet.",
    token_title: "Your player token",
    token_help: "This secret token is your identity here. Copy it or scan the code with another device to continue there. Keep it private.",
    show_token: "Show token", copy_token: "Copy token", token_copied: "Token copied.",
    use_token: "Use a token from another device", use: "Use this token",
    token_invalid: "That token is not recognised.", token_used: "Token saved: welcome back.",
    token_same: "You already play as this player.", token_kept: "Nothing changed: you keep your player.",
    replace_player: "This browser plays as {current}. Play as {incoming} instead? The token of {current} stays here, under Previous players.",
    replace_yes: "Replace", this_player: "another player", previous_players: "Previous players on this browser",
    switch_back: "Switch back", not_recognised: "not recognised",
    rotate_token: "Replace my token", rotate_yes: "Replace it", token_rotated: "New token saved; the old one no longer works.",
    rotate_confirm: "Your current token will stop working everywhere, on every device that has it. Only this browser gets the new one. Go on?",
    no_player: "You have no player yet: it is created when you first play.",
    result_title: "Result", by: "by {name}",
    hidden_until_reveal: "The dice stay hidden until the day is revealed.",
    turn_n: "Turn {n}", play_same: "Play this set", practice_same: "Practice this set",
    not_found: "Nothing found here.",
    err_network: "Connection lost. Your moves up to the last confirmed one are safe on the server.",
    preparing_player: "Preparing your player…",
    hint: "Hint", hint_unavailable: "Hints are not available on this server yet.",
    apply_hint: "Keep these dice", expected: "expected final score {value}",
    advice_keep: "Keep {dice}", advice_reroll_all: "Reroll everything",
    advice_box: "Score {points} in {box}",
    analyse: "Analyse my game", turn_roll: "Turn {turn}, roll {roll}:",
    analysis_summary: "{good} of {all} decisions were optimal. Your choices cost {loss} points of expected score; perfect play averages {best}.",
    mistake: "{chosen}; best: {best} (−{loss})", no_mistakes: "Every decision was optimal.",
    retry: "Retry", dismiss: "Dismiss", new_player: "Play as a new player", back_home: "Back to today",
    players_n_one: "{n} player", players_so_far_one: "{n} player so far",
    default_player: "Player {n}", bonus_missed: "bonus missed",
    tap_hint: "Tap a die to keep it.",
    moment_yahtzee: "Yahtzee! 50 points", moment_yatzy: "Yatzy! 50 points",
    moment_maxi_yatzy: "Maxi Yatzy! 100 points", moment_yacht: "Yacht! 50 points",
    moment_generala: "Generala!", moment_joker: "Joker! {points} in {box}",
    moment_extra: "Extra Yahtzee: +{bonus}", moment_bonus: "Upper bonus: +{bonus}",
    joker_title: "Five alike again: the joker rule",
    joker_upper: "{box} is open, so five {face}s must go there ({points} points); every other box is closed for this roll.",
    joker_lower: "{upper} is already filled, so five alike go in an open lower box, where they count as a joker: full house 25, small straight 30, large straight 40, the others the sum of the dice. Upper boxes are closed while a lower box is open.",
    joker_scratch: "{upper} and every lower box are filled, so this roll scores 0 in an open upper box.",
    joker_extra: "Your Yahtzee box holds 50, so this roll also earns +{bonus}.",
    joker_no_extra: "Your Yahtzee box holds 0, so there is no extra bonus.",
    share_legend: "🟩 60%+ of the box's best · 🟨 below · ⬛ 0",
    opponents: "Computer opponents", opponents_help: "They play the same rolls after you; each of their turns appears once you have scored yours.",
    level_easy: "Easy", level_medium: "Medium", level_hard: "Hard",
    opp_card: "{name}: {total}", opp_turn_hidden: "after your turn",
    you_vs: "You {you} · {name} {them}", you_won: "You win", you_lost: "You lose", you_tied: "Tie",
    par_expected: "{level} bot: expects {expected} on average; on these dice {total}",
    par_expected_unknown: "{level} bot: on these dice {total}",
    challenge: "Challenge a friend", challenge_made: "Challenge {code}: send this link",
    challenge_title: "Challenge {code}", challenge_intro: "Same dice for everyone who takes this challenge.",
    challenge_blind: "Play blind", challenge_beat: "Play with the score to beat",
    challenge_entries: "Players", challenge_compare: "Turn by turn",
    challenge_none: "Nobody has finished yet.", challenge_code: "Challenge code",
    challenge_join: "Open a challenge", challenge_open: "Open",
    challenge_gain: "{name} +{value}", to_beat: "To beat: {name}",
    challenge_hidden: "Finish your own game to see the turn-by-turn comparison.",
    groups: "Your groups", group_create: "Create a group", group_join: "Join with a code",
    group_name: "Group name", group_code: "Group code", group_leave: "Leave group",
    group_members: "Members", group_board: "Today's board", group_week: "This week",
    group_streak: "Streak", group_days: "Days", group_total: "Total", no_groups: "You are in no group yet.",
    group_left: "You left the group.", group_joined: "You joined {name}.",
    group_invite: "Invite code: ",
    rules_example: "Example", rules_pick: "Ruleset", rules_all: "All",
    rules_title: "How to play",
    rules_text: [
      "Each turn you roll the dice up to three times. Between rolls keep any dice (tap them) and reroll the rest.",
      "After your rolls, choose one open box of the card. Each box is used once; a box whose requirement the dice miss scores 0.",
      "The grey numbers are the points each box would score now. Fill the upper boxes well to earn the bonus.",
      "Every player gets the same dice each day; only your first game of each daily set counts for the leaderboard.",
    ],
  },
  it: {
    skip: "Vai al contenuto",
    nav_home: "Oggi", nav_boards: "Classifiche", nav_practice: "Allenati",
    nav_profile: "Profilo", nav_rules: "Regole",
    lang_button: "EN", lang_label: "Switch to English",
    loading: "Caricamento…",
    demo_note: "OROLOGIO DEMO: qui un giorno dura {minutes} min (ora demo {now} UTC). Non è la gara vera.",
    hints_ready_in: "Suggerimenti per {game} pronti tra circa {minutes} min",
    hints_building: "Suggerimenti per {game} in preparazione",
    home_title: "I dadi di oggi",
    home_intro: "Oggi tutti hanno gli stessi dadi. Conta la tua prima partita di ogni serie.",
    next_day: "Nuovi dadi tra {time}",
    play: "Gioca", resume: "Riprendi", played: "Giocata: {total}", see_result: "Vedi risultato",
    see_board: "Classifica",
    status_open: "Aperta", status_revealed: "Rivelata", status_upcoming: "In arrivo",
    rules_link: "Come si gioca",
    day_of: "{date}",
    turn_of: "Turno {turn} di {turns}",
    rolls_left: "{n} lanci rimasti", rolls_left_1: "1 lancio rimasto", rolls_left_0: "Nessun lancio rimasto",
    roll: "Lancia", roll_hint: "Tocca i dadi da tenere, poi rilancia o scegli una casella.",
    all_kept: "Tutti i dadi sono tenuti: liberane uno per lanciare.",
    die_label: "Dado {i}: {face}", die_kept: "tenuto", die_free: "da rilanciare",
    kept: "Tenuto",
    keys_hint: "Tasti: 1–{n} tieni un dado · Spazio o R lancia · ↑↓ e Invio scegli una casella",
    card: "Segnapunti", box: "Casella", points: "Punti",
    upper_progress: "Sezione superiore: {total} / {threshold}",
    to_go: "ne mancano {n}", bonus_won: "bonus ottenuto",
    upper_bonus: "Bonus superiore", extra_bonus: "Bonus extra ({n}×)",
    total: "Totale",
    in_column: "{box} (colonna {n})", column_total: "Colonna", column_weighted: "× peso",
    served_hint: "Primo lancio: una combinazione segnata ora è servita e vale di più.",
    heuristic: "euristico", heuristic_note: "Il Triple Yahtzee non ha una soluzione esatta: questi valori vengono da un giocatore che guarda un turno avanti.",
    special: "Speciale della settimana",
    preview: "{box}: {points} punti se scelta",
    filled: "{box}: {points} punti, già segnata",
    disabled_box: "{box}: non consentita ora, {reason}",
    scratch_q: "Segnare 0 in {box}? La casella sarà usata.",
    scratch_yes: "Segna 0", cancel: "Annulla",
    reason_joker: "la regola del jolly decide dove va questo lancio",
    reason_upper_open: "regola del jolly: cinque uguali vanno in {box} finché è libera",
    reason_lower_first: "regola del jolly: con quella casella superiore già usata, cinque uguali vanno in una casella inferiore libera",
    reason_forced_order: "ordine obbligato: riempi le caselle dall'alto in basso",
    reason_box_filled: "{box} è già usata",
    reason_no_rolls: "nessun lancio rimasto in questo turno",
    reason_keeps_all: "hai tenuto tutti i dadi: scegli una casella",
    reason_game_over: "la partita è finita",
    scored: "{box}: {points} punti.",
    rolled: "Usciti {dice}.",
    game_over: "Partita finita",
    final_total: "Punteggio finale",
    rank_line: "Posizione {rank} su {players}", rank_only: "Posizione {rank}",
    percentile_line: "Pari o sopra il {p}% dei giocatori di oggi",
    rank_pending: "Calcolo della posizione…",
    ceiling_line: "Partita perfetta conoscendo i dadi in anticipo: {score}",
    review_title: "In revisione",
    review_disqualified: "Squalificata dopo la revisione",
    review_held_foresight: "{optimal} delle tue {decisions} decisioni sono state esattamente le migliori per dadi non ancora mostrati, più spesso di quanto il gioco leale spieghi. Il punteggio resta fuori dalla classifica pubblica finché un operatore non avrà controllato la partita.",
    review_held_ceiling: "Hai fatto {total}, il punteggio più alto possibile con questi dadi, che richiede di conoscere dadi non ancora mostrati. Il punteggio resta fuori dalla classifica pubblica finché un operatore non avrà controllato la partita.",
    review_disqualified_foresight: "{optimal} delle tue {decisions} decisioni sono state esattamente le migliori per dadi non ancora mostrati. Un operatore ha controllato la partita e resta fuori dalla classifica.",
    review_disqualified_ceiling: "Hai fatto {total}, il punteggio più alto possibile con questi dadi. Un operatore ha controllato la partita e resta fuori dalla classifica.",
    review_held_unchecked: "Il controllo del gioco leale non è riuscito su questa partita. Il punteggio resta fuori dalla classifica pubblica finché un operatore non l'avrà controllata.",
    review_disqualified_unchecked: "Un operatore ha controllato la partita e resta fuori dalla classifica.",
    copy_result: "Copia risultato", copied: "Risultato copiato negli appunti.",
    copy_failed: "Copia non riuscita: seleziona il testo qui sotto e copialo.",
    share: "Condividi", result_link: "Link al risultato",
    par: "Par (i bot con gli stessi dadi)", par_easy: "facile", par_medium: "medio", par_hard: "difficile",
    distribution: "Distribuzione dei punteggi", your_score: "Tu: {score}",
    chart_label: "Istogramma di {players} punteggi; il tuo punteggio {score} è evidenziato.",
    players_n: "{n} giocatori", players_so_far: "{n} giocatori finora",
    practice_mode: "Allenamento", ranked_mode: "Classificata",
    board_title: "Classifica", top: "Primi {n}", around_you: "Intorno a te",
    rank: "Pos.", player: "Giocatore", score: "Punti", you: "tu",
    frozen: "Definitiva", live: "In corso",
    prev_day: "Giorno prima", next_day_btn: "Giorno dopo", date: "Data", ruleset: "Gioco",
    no_players: "Nessuno ha ancora finito questa serie.",
    practice_title: "Allenamento",
    practice_intro: "Le partite di allenamento non vanno in classifica. Rigioca un giorno rivelato o prova dadi casuali.",
    random_dice: "Dadi casuali", revealed_days: "Giorni rivelati", no_revealed: "Ancora nessun giorno rivelato.",
    play_practice: "Allenati su questo giorno",
    profile_title: "Profilo", name: "Nome visualizzato", save: "Salva", saved: "Salvato.",
    stats: "Statistiche", games: "Partite", average: "Media", best: "Record",
    streak: "Serie attuale", longest: "Serie più lunga", history: "Storico",
    no_history: "Ancora nessuna partita.",
    token_title: "Il tuo codice giocatore",
    token_help: "Questo codice segreto è la tua identità qui. Copialo o inquadra il QR con un altro dispositivo per continuare lì. Non condividerlo.",
    show_token: "Mostra codice", copy_token: "Copia codice", token_copied: "Codice copiato.",
    use_token: "Usa un codice da un altro dispositivo", use: "Usa questo codice",
    token_invalid: "Codice non riconosciuto.", token_used: "Codice salvato: bentornato.",
    token_same: "Giochi già come questo giocatore.", token_kept: "Nessuna modifica: resti il giocatore di prima.",
    replace_player: "Questo browser gioca come {current}. Giocare invece come {incoming}? Il codice di {current} resta qui, tra i giocatori precedenti.",
    replace_yes: "Sostituisci", this_player: "un altro giocatore", previous_players: "Giocatori precedenti su questo browser",
    switch_back: "Torna a questo", not_recognised: "non riconosciuto",
    rotate_token: "Sostituisci il mio codice", rotate_yes: "Sostituiscilo", token_rotated: "Nuovo codice salvato; quello vecchio non funziona più.",
    rotate_confirm: "Il codice attuale smetterà di funzionare ovunque, su ogni dispositivo che lo ha. Solo questo browser riceve quello nuovo. Continuare?",
    no_player: "Non hai ancora un giocatore: viene creato alla prima partita.",
    result_title: "Risultato", by: "di {name}",
    hidden_until_reveal: "I dadi restano nascosti finché il giorno non è rivelato.",
    turn_n: "Turno {n}", play_same: "Gioca questa serie", practice_same: "Allenati su questa serie",
    not_found: "Qui non c'è niente.",
    err_network: "Connessione persa. Le tue mosse fino all'ultima confermata sono salve sul server.",
    preparing_player: "Preparazione del tuo giocatore…",
    hint: "Suggerimento", hint_unavailable: "I suggerimenti non sono ancora disponibili su questo server.",
    apply_hint: "Tieni questi dadi", expected: "punteggio finale atteso {value}",
    advice_keep: "Tieni {dice}", advice_reroll_all: "Rilancia tutto",
    advice_box: "Segna {points} in {box}",
    analyse: "Analizza la partita", turn_roll: "Turno {turn}, lancio {roll}:",
    analysis_summary: "{good} decisioni ottimali su {all}. Le tue scelte sono costate {loss} punti di punteggio atteso; il gioco perfetto fa in media {best}.",
    mistake: "{chosen}; meglio: {best} (−{loss})", no_mistakes: "Ogni decisione è stata ottimale.",
    retry: "Riprova", dismiss: "Chiudi", new_player: "Gioca come nuovo giocatore", back_home: "Torna a oggi",
    players_n_one: "{n} giocatore", players_so_far_one: "{n} giocatore finora",
    default_player: "Giocatore {n}", bonus_missed: "bonus mancato",
    tap_hint: "Tocca un dado per tenerlo.",
    moment_yahtzee: "Yahtzee! 50 punti", moment_yatzy: "Yatzy! 50 punti",
    moment_maxi_yatzy: "Maxi Yatzy! 100 punti", moment_yacht: "Yacht! 50 punti",
    moment_generala: "Generala!", moment_joker: "Jolly! {points} in {box}",
    moment_extra: "Yahtzee extra: +{bonus}", moment_bonus: "Bonus superiore: +{bonus}",
    joker_title: "Di nuovo cinque uguali: la regola del jolly",
    joker_upper: "{box} è libera, quindi cinque {face} vanno lì ({points} punti); le altre caselle sono chiuse per questo lancio.",
    joker_lower: "{upper} è già usata, quindi cinque uguali vanno in una casella inferiore libera, dove valgono come jolly: Full 25, Scala piccola 30, Scala grande 40, le altre la somma dei dadi. Le caselle superiori sono chiuse finché ce n'è una inferiore libera.",
    joker_scratch: "{upper} e tutte le caselle inferiori sono usate, quindi questo lancio vale 0 in una casella superiore libera.",
    joker_extra: "La tua casella Yahtzee ha 50, quindi questo lancio vale anche +{bonus}.",
    joker_no_extra: "La tua casella Yahtzee ha 0, quindi niente bonus extra.",
    share_legend: "🟩 almeno il 60% del massimo della casella · 🟨 meno · ⬛ 0",
    opponents: "Avversari del computer", opponents_help: "Giocano gli stessi lanci dopo di te; ogni loro turno appare quando hai segnato il tuo.",
    level_easy: "Facile", level_medium: "Medio", level_hard: "Difficile",
    opp_card: "{name}: {total}", opp_turn_hidden: "dopo il tuo turno",
    you_vs: "Tu {you} · {name} {them}", you_won: "Hai vinto", you_lost: "Hai perso", you_tied: "Pareggio",
    par_expected: "Bot {level}: in media {expected}; con questi dadi {total}",
    par_expected_unknown: "Bot {level}: con questi dadi {total}",
    challenge: "Sfida un amico", challenge_made: "Sfida {code}: manda questo link",
    challenge_title: "Sfida {code}", challenge_intro: "Gli stessi dadi per chiunque accetti questa sfida.",
    challenge_blind: "Gioca alla cieca", challenge_beat: "Gioca col punteggio da battere",
    challenge_entries: "Giocatori", challenge_compare: "Turno per turno",
    challenge_none: "Nessuno ha ancora finito.", challenge_code: "Codice sfida",
    challenge_join: "Apri una sfida", challenge_open: "Apri",
    challenge_gain: "{name} +{value}", to_beat: "Da battere: {name}",
    challenge_hidden: "Finisci la tua partita per vedere il confronto turno per turno.",
    groups: "I tuoi gruppi", group_create: "Crea un gruppo", group_join: "Entra con un codice",
    group_name: "Nome del gruppo", group_code: "Codice del gruppo", group_leave: "Esci dal gruppo",
    group_members: "Membri", group_board: "Classifica di oggi", group_week: "Questa settimana",
    group_streak: "Serie", group_days: "Giorni", group_total: "Totale", no_groups: "Non sei ancora in un gruppo.",
    group_left: "Sei uscito dal gruppo.", group_joined: "Sei entrato in {name}.",
    group_invite: "Codice d'invito: ",
    rules_example: "Esempio", rules_pick: "Gioco", rules_all: "Tutti",
    rules_title: "Come si gioca",
    rules_text: [
      "A ogni turno lanci i dadi fino a tre volte. Tra un lancio e l'altro tieni i dadi che vuoi (toccali) e rilancia gli altri.",
      "Dopo i lanci scegli una casella libera del segnapunti. Ogni casella si usa una volta; se i dadi non soddisfano la casella, vale 0.",
      "I numeri grigi sono i punti che ogni casella darebbe adesso. Riempi bene la sezione superiore per ottenere il bonus.",
      "Ogni giorno tutti hanno gli stessi dadi; in classifica conta solo la tua prima partita di ogni serie.",
    ],
  },
};

// What every error code of the API means to a player (daily/service/http/contract/errors.py
// lists the codes; tests/web/test_errors_i18n.py checks that each has both languages):
// what happened and what to do. The API's English `message` is never shown.
const ERRORS = {
  en: {
    bad_request: "The server could not read that request. Reload the page and try again.",
    unauthorized: "This browser's player was not recognised. Bring your player back with its token (Profile), or play as a new player.",
    forbidden: "That is not open to you: it belongs to another player, or it stays closed while its day is open.",
    not_in_group: "You are not in this group. Ask a member for its invite link to join it.",
    not_found: "Nothing found here. Check the link, or go back to today's dice.",
    unknown_result: "No result has this code. Check it, or ask for the link again.",
    unknown_challenge: "No challenge has this code. Check it, or ask your friend for the link again.",
    unknown_group: "No group has this code. Check it, or ask a member for the invite link.",
    method_not_allowed: "That is not possible here. Reload the page and try again.",
    already_ranked: "You already played this set today. You can practise it once the day is revealed.",
    day_not_open: "This day is not open for ranked play (it has closed, or not opened yet). Your moves are saved; play today's dice or practise.",
    day_not_revealed: "These dice are still secret: you can practise this day once it is revealed.",
    illegal_move: "That move is not allowed right now: choose another one.",
    illegal_move_why: "That move is not allowed: {why}.",
    game_over: "This game is already over. Open its result to see it.",
    log_mismatch: "This game's moves could not be matched. Reload the game and play on from where it stands.",
    not_revealed: "This game's moves could not be matched. Reload the game and play on from where it stands.",
    invalid_log: "This game's moves could not be read. Reload the game and play on from where it stands.",
    log_unfinished: "This game is not finished yet: fill every box first.",
    conflict: "This changed meanwhile (in another tab or on another device). Reload the page to see it as it is now.",
    stale_position: "This game moved on elsewhere (another tab or device); here it is as it stands.",
    opponents_unavailable: "Computer opponents cannot play this game. Start it without them.",
    group_full: "This group is full (50 players). Ask a member to start another group.",
    too_many_groups: "You are already in 20 groups: leave one before you join another.",
    too_large: "That was too much to send at once. Reload the page and try again.",
    uri_too_long: "That link is too long to open. Check it, or ask for it again.",
    unsupported_media_type: "The server could not read that request. Reload the page and try again.",
    expectation_failed: "The server could not read that request. Reload the page and try again.",
    headers_too_large: "Your browser sent more than the server reads. Reload the page and try again.",
    invalid_field: "Something in that request was not accepted. Reload the page and try again.",
    bad_name: "A name has 1 to 24 characters and no invisible characters. Try another one.",
    bad_group_name: "A group name has 1 to 40 characters. Try another one.",
    bad_group_code: "That is not a group code: a group code looks like G-AB12CD (G- and 6 letters or digits).",
    bad_challenge_code: "That is not a challenge code: a challenge code looks like CH-K7M2Q9XD (CH- and 8 letters or digits).",
    bad_result_code: "That is not a result code: a result code looks like DD-7K3M9QX2PA.",
    pow_required: "Your new player could not be prepared. Reload the page and try again.",
    pow_wrong: "Your new player could not be prepared. Reload the page and try again.",
    pow_stale: "Preparing your new player took too long. Reload the page and try again.",
    rate_limited: "Too many requests at once: wait {s} seconds and try again.",
    too_many_players: "Too many new players from your network right now: try again in {min} min.",
    internal: "Something went wrong on our side; it has been logged. Try again in a moment.",
    not_implemented: "The server could not read that request. Reload the page and try again.",
    unavailable: "The service is starting up or briefly out of reach. Try again in a few seconds.",
    error: "Something went wrong. Reload the page and try again.",
  },
  it: {
    bad_request: "Il server non ha capito la richiesta. Ricarica la pagina e riprova.",
    unauthorized: "Il giocatore di questo browser non è stato riconosciuto. Recuperalo col suo codice (Profilo), oppure gioca come nuovo giocatore.",
    forbidden: "Non è accessibile per te: è di un altro giocatore, o resta chiuso finché il suo giorno è aperto.",
    not_in_group: "Non fai parte di questo gruppo. Chiedi a un membro il link d'invito per entrare.",
    not_found: "Qui non c'è niente. Controlla il link, o torna ai dadi di oggi.",
    unknown_result: "Nessun risultato ha questo codice. Controllalo, o fatti rimandare il link.",
    unknown_challenge: "Nessuna sfida ha questo codice. Controllalo, o chiedi di nuovo il link al tuo amico.",
    unknown_group: "Nessun gruppo ha questo codice. Controllalo, o chiedi il link d'invito a un membro.",
    method_not_allowed: "Qui non è possibile. Ricarica la pagina e riprova.",
    already_ranked: "Hai già giocato questa serie oggi. Potrai allenarti quando il giorno sarà rivelato.",
    day_not_open: "Questo giorno non è aperto per la classifica (si è chiuso, o non è ancora iniziato). Le tue mosse sono salve; gioca i dadi di oggi o allenati.",
    day_not_revealed: "Questi dadi sono ancora segreti: potrai allenarti su questo giorno quando sarà rivelato.",
    illegal_move: "Questa mossa non è consentita ora: scegline un'altra.",
    illegal_move_why: "Questa mossa non è consentita: {why}.",
    game_over: "Questa partita è già finita. Apri il suo risultato per vederla.",
    log_mismatch: "Non è stato possibile confrontare le mosse della partita. Ricarica la partita e continua da dove è.",
    not_revealed: "Non è stato possibile confrontare le mosse della partita. Ricarica la partita e continua da dove è.",
    invalid_log: "Non è stato possibile leggere le mosse della partita. Ricarica la partita e continua da dove è.",
    log_unfinished: "La partita non è ancora finita: riempi prima tutte le caselle.",
    conflict: "Nel frattempo è cambiato qualcosa (in un'altra scheda o su un altro dispositivo). Ricarica la pagina per vederlo com'è ora.",
    stale_position: "La partita è andata avanti altrove (un'altra scheda o un altro dispositivo); eccola com'è ora.",
    opponents_unavailable: "Gli avversari del computer non possono giocare questa partita. Iniziala senza di loro.",
    group_full: "Questo gruppo è al completo (50 giocatori). Chiedi a un membro di crearne un altro.",
    too_many_groups: "Sei già in 20 gruppi: esci da uno prima di entrare in un altro.",
    too_large: "Troppi dati da inviare in una volta. Ricarica la pagina e riprova.",
    uri_too_long: "Questo link è troppo lungo da aprire. Controllalo, o fattelo rimandare.",
    unsupported_media_type: "Il server non ha capito la richiesta. Ricarica la pagina e riprova.",
    expectation_failed: "Il server non ha capito la richiesta. Ricarica la pagina e riprova.",
    headers_too_large: "Il browser ha inviato più di quanto il server legga. Ricarica la pagina e riprova.",
    invalid_field: "Qualcosa nella richiesta non è stato accettato. Ricarica la pagina e riprova.",
    bad_name: "Un nome ha da 1 a 24 caratteri e nessun carattere invisibile. Provane un altro.",
    bad_group_name: "Il nome di un gruppo ha da 1 a 40 caratteri. Provane un altro.",
    bad_group_code: "Questo non è un codice di gruppo: un codice di gruppo è come G-AB12CD (G- e 6 lettere o cifre).",
    bad_challenge_code: "Questo non è un codice di sfida: un codice di sfida è come CH-K7M2Q9XD (CH- e 8 lettere o cifre).",
    bad_result_code: "Questo non è un codice di risultato: un codice di risultato è come DD-7K3M9QX2PA.",
    pow_required: "Non è stato possibile preparare il tuo nuovo giocatore. Ricarica la pagina e riprova.",
    pow_wrong: "Non è stato possibile preparare il tuo nuovo giocatore. Ricarica la pagina e riprova.",
    pow_stale: "La preparazione del tuo nuovo giocatore ha richiesto troppo. Ricarica la pagina e riprova.",
    rate_limited: "Troppe richieste insieme: aspetta {s} secondi e riprova.",
    too_many_players: "Troppi nuovi giocatori dalla tua rete in questo momento: riprova tra {min} min.",
    internal: "Qualcosa non ha funzionato da parte nostra; è stato registrato. Riprova tra un momento.",
    not_implemented: "Il server non ha capito la richiesta. Ricarica la pagina e riprova.",
    unavailable: "Il servizio si sta avviando o è momentaneamente irraggiungibile. Riprova tra qualche secondo.",
    error: "Qualcosa non ha funzionato. Ricarica la pagina e riprova.",
  },
};

// The player's words for an error code ({s}, {min}, {why} filled from `vars`), or null.
export function errorMessage(code, vars) {
  const text = ERRORS[current][code] ?? ERRORS.en[code];
  if (text === undefined) return null;
  return text.replace(/\{(\w+)\}/g, (m, name) => (vars && name in vars ? String(vars[name]) : m));
}

const BOXES = {
  en: {
    ones: "Ones", twos: "Twos", threes: "Threes", fours: "Fours", fives: "Fives", sixes: "Sixes",
    one_pair: "One pair", two_pairs: "Two pairs", three_pairs: "Three pairs",
    three_of_a_kind: "Three of a kind", four_of_a_kind: "Four of a kind",
    five_of_a_kind: "Five of a kind", full_house: "Full house", villa: "Villa", tower: "Tower",
    small_straight: "Small straight", large_straight: "Large straight",
    full_straight: "Full straight", chance: "Chance", choice: "Choice",
    yahtzee: "Yahtzee", yatzy: "Yatzy", maxi_yatzy: "Maxi Yatzy", yacht: "Yacht",
    escalera: "Straight (escalera)", full: "Full", poker: "Poker", generala: "Generala",
    doble_generala: "Double Generala",
  },
  it: {
    ones: "Uno", twos: "Due", threes: "Tre", fours: "Quattro", fives: "Cinque", sixes: "Sei",
    one_pair: "Coppia", two_pairs: "Doppia coppia", three_pairs: "Tre coppie",
    three_of_a_kind: "Tris", four_of_a_kind: "Poker",
    five_of_a_kind: "Cinque uguali", full_house: "Full", villa: "Doppio tris", tower: "Torre",
    small_straight: "Scala piccola", large_straight: "Scala grande",
    full_straight: "Scala completa", chance: "Chance", choice: "Scelta",
    yahtzee: "Yahtzee", yatzy: "Yatzy", maxi_yatzy: "Maxi Yatzy", yacht: "Yacht",
    escalera: "Scala (escalera)", full: "Full", poker: "Poker", generala: "Generala",
    doble_generala: "Doppia Generala",
  },
};

const RULESETS = {
  en: {
    yahtzee: "Yahtzee", yatzy: "Yatzy", "maxi-yatzy": "Maxi Yatzy", yacht: "Yacht",
    generala: "Generala", "triple-yahtzee": "Triple Yahtzee",
  },
  it: {
    yahtzee: "Yahtzee", yatzy: "Yatzy", "maxi-yatzy": "Maxi Yatzy", yacht: "Yacht",
    generala: "Generala", "triple-yahtzee": "Yahtzee triplo",
  },
};

export const LANGS = ["en", "it"];
let current = "en";

export function detectLang(saved, navigatorLangs) {
  if (LANGS.includes(saved)) return saved;
  for (const tag of navigatorLangs || []) {
    const base = String(tag).toLowerCase().split("-")[0];
    if (LANGS.includes(base)) return base;
  }
  return "en";
}

export function setLang(lang) {
  current = LANGS.includes(lang) ? lang : "en";
  document.documentElement.lang = current;
}

export function lang() {
  return current;
}

const PLURALS = {};

// The plural form of `key` for `count` ("players_n_one" when it exists and fits).
function pluralKey(key, count) {
  if (typeof count !== "number") return key;
  PLURALS[current] = PLURALS[current] || new Intl.PluralRules(current === "it" ? "it-IT" : "en-GB");
  const form = `${key}_${PLURALS[current].select(count)}`;
  return (STRINGS[current][form] ?? STRINGS.en[form]) !== undefined ? form : key;
}

// t("players_n", {n: "1", count: 1}): `count` (a number) picks the plural form.
export function t(key, vars) {
  const chosen = pluralKey(key, vars && vars.count);
  let text = STRINGS[current][chosen] ?? STRINGS.en[chosen] ?? key;
  if (vars && typeof text === "string") {
    text = text.replace(/\{(\w+)\}/g, (m, name) => (name in vars ? String(vars[name]) : m));
  }
  return text;
}

export function boxName(id) {
  const dot = id.indexOf(".");
  if (dot > 0) return t("in_column", { box: boxName(id.slice(dot + 1)), n: id.slice(0, dot) });
  return BOXES[current][id] ?? BOXES.en[id] ?? id.replace(/_/g, " ");
}

export function rulesetName(id) {
  return RULESETS[current][id] ?? id;
}

export function fmtDate(iso) {
  if (!iso) return "";
  const [y, m, d] = iso.split("-").map(Number);
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.toLocaleDateString(current === "it" ? "it-IT" : "en-GB", {
    weekday: "short", day: "numeric", month: "short", year: "numeric", timeZone: "UTC",
  });
}

export function fmtNumber(n, digits = 0) {
  if (n === null || n === undefined || Number.isNaN(Number(n))) return "–";
  return Number(n).toLocaleString(current === "it" ? "it-IT" : "en-GB", {
    maximumFractionDigits: digits, minimumFractionDigits: 0,
  });
}

// Why a box or a move is not allowed now: the server's machine reason ({code, box}),
// in the interface language. An unknown code falls back to the server's English text.
const REASONS = {
  joker_upper_open: "reason_upper_open",
  joker_lower_first: "reason_lower_first",
  forced_order: "reason_forced_order",
  box_filled: "reason_box_filled",
  no_rolls_left: "reason_no_rolls",
  keeps_every_die: "reason_keeps_all",
  game_over: "reason_game_over",
};

export function reasonText(why, fallback = "") {
  const key = why && REASONS[why.code];
  if (key) return t(key, { box: why.box ? boxName(why.box) : "" });
  return fallback ? String(fallback) : "";
}

// A player's name for display: the server's default "Player 8731" in the interface language.
export function playerName(name) {
  const match = /^Player (\d+)$/.exec(name || "");
  return match ? t("default_player", { n: match[1] }) : (name || "–");
}
