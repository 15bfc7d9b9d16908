// The rules pages' reference data (documentation only: the server decides every score).
// Loaded on demand, so it costs nothing on the first load.
//
// Data-driven: one entry per ruleset in RULES_EXAMPLES (the example dice of every box
// and the points they score, checked against the core by tests/web/test_static.py) and
// in RULES_DOC (the words, per language). A new ruleset adds an entry to both; the page
// lists every entry of RULES_EXAMPLES. The examples are JSON (the test reads them). A
// card of several columns (Triple Yahtzee: "1.ones", "2.ones", ...) lists each box once.

export const RULES_EXAMPLES = {
  "yahtzee": {
    "ones": [[1, 1, 3, 4, 6], 2], "twos": [[2, 2, 2, 5, 6], 6], "threes": [[3, 3, 1, 4, 6], 6],
    "fours": [[4, 4, 4, 4, 2], 16], "fives": [[5, 5, 1, 2, 3], 10], "sixes": [[6, 6, 6, 1, 2], 18],
    "three_of_a_kind": [[6, 6, 6, 2, 1], 21], "four_of_a_kind": [[5, 5, 5, 5, 2], 22],
    "full_house": [[4, 4, 4, 6, 6], 25], "small_straight": [[2, 3, 4, 5, 5], 30],
    "large_straight": [[1, 2, 3, 4, 5], 40], "yahtzee": [[6, 6, 6, 6, 6], 50],
    "chance": [[1, 2, 4, 5, 6], 18]
  },
  "yatzy": {
    "ones": [[1, 1, 3, 4, 6], 2], "twos": [[2, 2, 2, 5, 6], 6], "threes": [[3, 3, 1, 4, 6], 6],
    "fours": [[4, 4, 4, 4, 2], 16], "fives": [[5, 5, 1, 2, 3], 10], "sixes": [[6, 6, 6, 1, 2], 18],
    "one_pair": [[6, 6, 5, 3, 2], 12], "two_pairs": [[6, 6, 4, 4, 3], 20],
    "three_of_a_kind": [[5, 5, 5, 3, 2], 15], "four_of_a_kind": [[5, 5, 5, 5, 2], 20],
    "small_straight": [[1, 2, 3, 4, 5], 15], "large_straight": [[2, 3, 4, 5, 6], 20],
    "full_house": [[6, 6, 6, 3, 3], 24], "chance": [[1, 2, 4, 5, 6], 18],
    "yatzy": [[3, 3, 3, 3, 3], 50]
  },
  "maxi-yatzy": {
    "ones": [[1, 1, 3, 4, 6, 6], 2], "twos": [[2, 2, 2, 5, 6, 1], 6],
    "threes": [[3, 3, 1, 4, 6, 2], 6], "fours": [[4, 4, 4, 4, 2, 1], 16],
    "fives": [[5, 5, 1, 2, 3, 5], 15], "sixes": [[6, 6, 6, 1, 2, 3], 18],
    "one_pair": [[6, 6, 5, 3, 2, 1], 12], "two_pairs": [[6, 6, 4, 4, 3, 1], 20],
    "three_pairs": [[6, 6, 5, 5, 2, 2], 26], "three_of_a_kind": [[5, 5, 5, 3, 2, 1], 15],
    "four_of_a_kind": [[5, 5, 5, 5, 2, 1], 20], "five_of_a_kind": [[4, 4, 4, 4, 4, 2], 20],
    "full_house": [[6, 6, 6, 3, 3, 1], 24], "villa": [[5, 5, 5, 2, 2, 2], 21],
    "tower": [[6, 6, 6, 6, 2, 2], 28], "small_straight": [[1, 2, 3, 4, 5, 5], 15],
    "large_straight": [[2, 3, 4, 5, 6, 6], 20], "full_straight": [[1, 2, 3, 4, 5, 6], 21],
    "chance": [[6, 6, 5, 4, 3, 1], 25], "maxi_yatzy": [[2, 2, 2, 2, 2, 2], 100]
  },
  "yacht": {
    "ones": [[1, 1, 3, 4, 6], 2], "twos": [[2, 2, 2, 5, 6], 6], "threes": [[3, 3, 1, 4, 6], 6],
    "fours": [[4, 4, 4, 4, 2], 16], "fives": [[5, 5, 1, 2, 3], 10], "sixes": [[6, 6, 6, 1, 2], 18],
    "choice": [[1, 2, 4, 5, 6], 18], "four_of_a_kind": [[3, 3, 3, 3, 6], 18],
    "full_house": [[2, 2, 2, 5, 5], 16], "small_straight": [[1, 2, 3, 4, 6], 15],
    "large_straight": [[2, 3, 4, 5, 6], 30], "yacht": [[4, 4, 4, 4, 4], 50]
  },
  "generala": {
    "ones": [[1, 1, 3, 4, 6], 2], "twos": [[2, 2, 2, 5, 6], 6], "threes": [[3, 3, 1, 4, 6], 6],
    "fours": [[4, 4, 4, 4, 2], 16], "fives": [[5, 5, 1, 2, 3], 10], "sixes": [[6, 6, 6, 1, 2], 18],
    "escalera": [[2, 3, 4, 5, 6], 20], "full": [[3, 3, 3, 5, 5], 30],
    "poker": [[4, 4, 4, 4, 2], 40], "generala": [[6, 6, 6, 6, 6], 50],
    "doble_generala": [[2, 2, 2, 2, 2], 100]
  },
  "triple-yahtzee": {
    "ones": [[1, 1, 3, 4, 6], 2], "twos": [[2, 2, 2, 5, 6], 6], "threes": [[3, 3, 1, 4, 6], 6],
    "fours": [[4, 4, 4, 4, 2], 16], "fives": [[5, 5, 1, 2, 3], 10], "sixes": [[6, 6, 6, 1, 2], 18],
    "three_of_a_kind": [[6, 6, 6, 2, 1], 21], "four_of_a_kind": [[5, 5, 5, 5, 2], 22],
    "full_house": [[4, 4, 4, 6, 6], 25], "small_straight": [[2, 3, 4, 5, 5], 30],
    "large_straight": [[1, 2, 3, 4, 5], 40], "yahtzee": [[6, 6, 6, 6, 6], 50],
    "chance": [[1, 2, 4, 5, 6], 18]
  }
};

const UPPER_EN = {
  ones: "Sum of the 1s", twos: "Sum of the 2s", threes: "Sum of the 3s",
  fours: "Sum of the 4s", fives: "Sum of the 5s", sixes: "Sum of the 6s",
};
const UPPER_IT = {
  ones: "Somma degli 1", twos: "Somma dei 2", threes: "Somma dei 3",
  fours: "Somma dei 4", fives: "Somma dei 5", sixes: "Somma dei 6",
};

export const RULES_DOC = {
  en: {
    yahtzee: {
      intro: "5 dice, 13 boxes, up to 3 rolls a turn.",
      boxes: {
        ...UPPER_EN,
        three_of_a_kind: "At least three alike: sum of all dice",
        four_of_a_kind: "At least four alike: sum of all dice",
        full_house: "Three of one face and two of another: 25",
        small_straight: "Four in a row: 30", large_straight: "Five in a row: 40",
        yahtzee: "Five alike: 50", chance: "Sum of all dice",
      },
      notes: [
        "Upper bonus: 35 when the upper boxes total 63 or more.",
        "Each further Yahtzee earns +100 if the Yahtzee box holds 50, and must follow the joker rule: the matching upper box if open, else any open lower box (full house 25, straights 30 and 40), else 0 in an upper box.",
      ],
    },
    yatzy: {
      intro: "5 dice, 15 boxes, up to 3 rolls a turn. In most boxes only the dice forming the combination count.",
      boxes: {
        ...UPPER_EN,
        one_pair: "Two alike: the highest pair's sum", two_pairs: "Two different pairs: their sum",
        three_of_a_kind: "Three alike: their sum", four_of_a_kind: "Four alike: their sum",
        small_straight: "Exactly 1-2-3-4-5: 15", large_straight: "Exactly 2-3-4-5-6: 20",
        full_house: "Three alike and a pair: sum of all five", chance: "Sum of all dice",
        yatzy: "Five alike: 50",
      },
      notes: [
        "Upper bonus: 50 when the upper boxes total 63 or more.",
        "No extra-Yatzy bonus and no joker: a second Yatzy goes in another open box.",
      ],
    },
    "maxi-yatzy": {
      intro: "6 dice, 20 boxes, up to 3 rolls a turn. Only the dice forming the combination count.",
      boxes: {
        ...UPPER_EN,
        one_pair: "Highest pair: its sum", two_pairs: "Two different pairs: their sum",
        three_pairs: "Three different pairs: sum of all six",
        three_of_a_kind: "Three alike: their sum", four_of_a_kind: "Four alike: their sum",
        five_of_a_kind: "Five alike: their sum",
        full_house: "Three alike and a pair: sum of those five",
        villa: "Two different three-alikes: sum of all six",
        tower: "Four alike and a pair: sum of all six",
        small_straight: "1-2-3-4-5: 15", large_straight: "2-3-4-5-6: 20",
        full_straight: "1-2-3-4-5-6: 21", chance: "Sum of all dice", maxi_yatzy: "Six alike: 100",
      },
      notes: ["Upper bonus: 100 when the upper boxes total 84 or more."],
    },
    yacht: {
      intro: "5 dice, 12 boxes, up to 3 rolls a turn: the older public-domain game.",
      boxes: {
        ...UPPER_EN,
        choice: "Sum of all dice", four_of_a_kind: "Four or more alike: sum of all five",
        full_house: "Three and two (or five alike): sum of all five",
        small_straight: "Four in a row: 15", large_straight: "Five in a row: 30",
        yacht: "Five alike: 50",
      },
      notes: ["Upper bonus: 35 when the upper boxes total 63 or more."],
    },
    generala: {
      intro: "5 dice, 11 boxes, up to 3 rolls a turn. A combination made on the turn's first roll is served and scores more.",
      boxes: {
        ones: "Sum of the 1s", twos: "Sum of the 2s", threes: "Sum of the 3s",
        fours: "Sum of the 4s", fives: "Sum of the 5s", sixes: "Sum of the 6s",
        escalera: "1-2-3-4-5, 2-3-4-5-6 or 3-4-5-6-1: 20, served 25",
        full: "Three of one face and two of another: 30, served 35",
        poker: "Four or more alike: 40, served 45",
        generala: "Five alike: 50, served 60",
        doble_generala: "Five alike once Generala holds points: 100",
      },
      notes: ["No upper bonus and no joker. Five alike are not a full."],
    },
    "triple-yahtzee": {
      intro: "The Yahtzee card three times side by side: 39 boxes, 39 turns. Each turn fills one box in any column.",
      boxes: {
        ...UPPER_EN,
        three_of_a_kind: "At least three alike: sum of all dice",
        four_of_a_kind: "At least four alike: sum of all dice",
        full_house: "Three of one face and two of another: 25",
        small_straight: "Four in a row: 30", large_straight: "Five in a row: 40",
        yahtzee: "Five alike: 50", chance: "Sum of all dice",
      },
      notes: [
        "Each column has its own 35 bonus at 63. Column 1 counts once, column 2 twice, column 3 three times.",
        "No extra-Yahtzee bonus and no joker in the default edition.",
      ],
    },
  },
  it: {
    yahtzee: {
      intro: "5 dadi, 13 caselle, fino a 3 lanci per turno.",
      boxes: {
        ...UPPER_IT,
        three_of_a_kind: "Almeno tre uguali: somma di tutti i dadi",
        four_of_a_kind: "Almeno quattro uguali: somma di tutti i dadi",
        full_house: "Tre di un valore e due di un altro: 25",
        small_straight: "Quattro in fila: 30", large_straight: "Cinque in fila: 40",
        yahtzee: "Cinque uguali: 50", chance: "Somma di tutti i dadi",
      },
      notes: [
        "Bonus superiore: 35 se le caselle superiori sommano almeno 63.",
        "Ogni Yahtzee successivo vale +100 se la casella Yahtzee ha 50, e segue la regola del jolly: la casella superiore corrispondente se libera, altrimenti una casella inferiore libera (Full 25, scale 30 e 40), altrimenti 0 in una casella superiore.",
      ],
    },
    yatzy: {
      intro: "5 dadi, 15 caselle, fino a 3 lanci per turno. Nella maggior parte delle caselle contano solo i dadi della combinazione.",
      boxes: {
        ...UPPER_IT,
        one_pair: "Due uguali: la somma della coppia più alta", two_pairs: "Due coppie diverse: la loro somma",
        three_of_a_kind: "Tre uguali: la loro somma", four_of_a_kind: "Quattro uguali: la loro somma",
        small_straight: "Esattamente 1-2-3-4-5: 15", large_straight: "Esattamente 2-3-4-5-6: 20",
        full_house: "Tre uguali e una coppia: somma dei cinque dadi", chance: "Somma di tutti i dadi",
        yatzy: "Cinque uguali: 50",
      },
      notes: [
        "Bonus superiore: 50 se le caselle superiori sommano almeno 63.",
        "Niente bonus per altri Yatzy e niente jolly: un secondo Yatzy va in un'altra casella libera.",
      ],
    },
    "maxi-yatzy": {
      intro: "6 dadi, 20 caselle, fino a 3 lanci per turno. Contano solo i dadi della combinazione.",
      boxes: {
        ...UPPER_IT,
        one_pair: "La coppia più alta: la sua somma", two_pairs: "Due coppie diverse: la loro somma",
        three_pairs: "Tre coppie diverse: somma dei sei dadi",
        three_of_a_kind: "Tre uguali: la loro somma", four_of_a_kind: "Quattro uguali: la loro somma",
        five_of_a_kind: "Cinque uguali: la loro somma",
        full_house: "Tre uguali e una coppia: somma di quei cinque",
        villa: "Due tris diversi: somma dei sei dadi",
        tower: "Quattro uguali e una coppia: somma dei sei dadi",
        small_straight: "1-2-3-4-5: 15", large_straight: "2-3-4-5-6: 20",
        full_straight: "1-2-3-4-5-6: 21", chance: "Somma di tutti i dadi", maxi_yatzy: "Sei uguali: 100",
      },
      notes: ["Bonus superiore: 100 se le caselle superiori sommano almeno 84."],
    },
    yacht: {
      intro: "5 dadi, 12 caselle, fino a 3 lanci per turno: il gioco più antico, di pubblico dominio.",
      boxes: {
        ...UPPER_IT,
        choice: "Somma di tutti i dadi", four_of_a_kind: "Quattro o più uguali: somma dei cinque dadi",
        full_house: "Tre e due (o cinque uguali): somma dei cinque dadi",
        small_straight: "Quattro in fila: 15", large_straight: "Cinque in fila: 30",
        yacht: "Cinque uguali: 50",
      },
      notes: ["Bonus superiore: 35 se le caselle superiori sommano almeno 63."],
    },
    generala: {
      intro: "5 dadi, 11 caselle, fino a 3 lanci per turno. Una combinazione fatta al primo lancio del turno è servita e vale di più.",
      boxes: {
        ones: "Somma degli 1", twos: "Somma dei 2", threes: "Somma dei 3",
        fours: "Somma dei 4", fives: "Somma dei 5", sixes: "Somma dei 6",
        escalera: "1-2-3-4-5, 2-3-4-5-6 o 3-4-5-6-1: 20, servita 25",
        full: "Tre di un valore e due di un altro: 30, servito 35",
        poker: "Quattro o più uguali: 40, servito 45",
        generala: "Cinque uguali: 50, servita 60",
        doble_generala: "Cinque uguali quando la Generala ha punti: 100",
      },
      notes: ["Nessun bonus superiore e nessun jolly. Cinque uguali non sono un full."],
    },
    "triple-yahtzee": {
      intro: "Il segnapunti dello Yahtzee tre volte affiancato: 39 caselle, 39 turni. Ogni turno riempie una casella in una colonna a scelta.",
      boxes: {
        ...UPPER_IT,
        three_of_a_kind: "Almeno tre uguali: somma di tutti i dadi",
        four_of_a_kind: "Almeno quattro uguali: somma di tutti i dadi",
        full_house: "Tre di un valore e due di un altro: 25",
        small_straight: "Quattro in fila: 30", large_straight: "Cinque in fila: 40",
        yahtzee: "Cinque uguali: 50", chance: "Somma di tutti i dadi",
      },
      notes: [
        "Ogni colonna ha il suo bonus di 35 a 63. La colonna 1 conta una volta, la 2 due volte, la 3 tre volte.",
        "Nessun bonus Yahtzee extra e nessun jolly nell'edizione normale.",
      ],
    },
  },
};
