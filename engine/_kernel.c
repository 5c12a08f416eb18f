/* engine._kernel: the hot loops of pinochle and Pinnacolo in C, for batches of whole hands.

   Why the plain CPython API, and not cffi or Cython: the engine runs inside the bot
   sandbox with the standard library only, so the kernel may need nothing at import
   beyond the interpreter; it is one .c file, built by deploy/build_kernel.py with gcc and
   the Python headers (no build dependency either), and optional: engine/kernel.py loads
   it when it is built and current, and the pure engine runs otherwise.

   What it computes is the pure engine's own definition, card for card:
   - a face is suit * 6 + rank (engine/cards.py); a hand is 24 face counts (up to 4
     copies: the double deck) and the 24-bit mask of the faces it holds;
   - the deal is splitmix64-fy-v1 (engine/rng.py), dealt in blocks of hand_size from the
     seat left of the dealer (engine/trickstate.py deal_blocks);
   - legal plays are engine/tricks.py legal_mask, the trick winner TAKES / beats;
   - meld totals are engine/meld.py meld_total (and, for the three-hand bury, the cards
     each meld item needs);
   - random choices are drawn from Python's own Mersenne Twister, whose state is taken
     from and given back to a random.Random (getstate/setstate), with random(),
     getrandbits and sample's algorithm of CPython 3.11: a random hand here is the hand
     HandState.play_randomly / CutthroatState.play_randomly / TwoHandState.play_randomly
     plays with the same generator (tested by tests/engine/test_kernel_differential.py);
   - two-hand's stock phase is engine/twohand.py's: any card in a stock trick, the
     winner's one meld of table 3.1 (the class of each copy laid kept on the table, the
     copies chosen as TwoHandState._placement chooses them) or the dix exchange, the draw;
   - playouts of the tricks from a position, uniform or by the card sense of the strong
     reference bot (bots/reference/strong.py Playout.finish; for three seats and two-hand's
     play-out bots/reference/trickplay.py Tricks.play_out), and its sampling of the
     unseen cards (Beliefs.sample), with the same draws (tests/bots/test_kernel_playouts.py).
   The rules arrive as one tuple built by engine/kernel.py (config_of), parsed once into a
   capsule (config) by the callers that call often.
   Pinnacolo's whole hands (pinnacolo_hands, with its own rules tuple, pinnacolo_config)
   are in their own section below, with the same generator and shuffle.
*/
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stdint.h>
#include <stddef.h>
#include <string.h>

/* An int's value: a card count, a face, a mask of the 24 faces, read at every step of a
   hand, take the one-digit path of CPython 3.11's ints (PyLong_AsLong's checks cost more
   than the rest of a read); anything else, and later Pythons, the general conversion. */
static inline long int_value(PyObject *o) {
#if PY_VERSION_HEX < 0x030C0000
    if (PyLong_CheckExact(o)) {
        Py_ssize_t size = Py_SIZE(o);
        if (size == 0) return 0;
        if (size == 1) return (long)((PyLongObject *)o)->ob_digit[0];
    }
#endif
    return PyLong_AsLong(o);
}

#define FACES 24
#define MAX_SEATS 4
#define MAX_BIDS 8192

/* ------------------------------------------------------------------ Mersenne Twister */

#define MT_N 624
#define MT_M 397

typedef struct {
    uint32_t mt[MT_N];
    int index;
} MT;

static uint32_t mt_next(MT *r) {
    static const uint32_t mag01[2] = {0x0U, 0x9908b0dfU};
    uint32_t y;
    uint32_t *mt = r->mt;
    if (r->index >= MT_N) {
        int kk;
        for (kk = 0; kk < MT_N - MT_M; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + MT_M] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        for (; kk < MT_N - 1; kk++) {
            y = (mt[kk] & 0x80000000U) | (mt[kk + 1] & 0x7fffffffU);
            mt[kk] = mt[kk + (MT_M - MT_N)] ^ (y >> 1) ^ mag01[y & 0x1U];
        }
        y = (mt[MT_N - 1] & 0x80000000U) | (mt[0] & 0x7fffffffU);
        mt[MT_N - 1] = mt[MT_M - 1] ^ (y >> 1) ^ mag01[y & 0x1U];
        r->index = 0;
    }
    y = mt[r->index++];
    y ^= (y >> 11);
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= (y >> 18);
    return y;
}

/* random.random(): 53 bits from two words. */
static double mt_random(MT *r) {
    uint32_t a = mt_next(r) >> 5, b = mt_next(r) >> 6;
    return (a * 67108864.0 + b) * (1.0 / 9007199254740992.0);
}

/* random.Random._randbelow_with_getrandbits(n), n >= 1, n < 2**32. */
static uint32_t mt_below(MT *r, uint32_t n) {
    int k = 0;
    uint32_t v = n;
    while (v) {
        k++;
        v >>= 1;
    }
    uint32_t x;
    do {
        x = mt_next(r) >> (32 - k);
    } while (x >= n);
    return x;
}

/* int(random() * n): the engine's uniform choice among n options. */
static int mt_choice(MT *r, int n) { return (int)(mt_random(r) * n); }

static void mt_init_genrand(MT *r, uint32_t s) {
    r->mt[0] = s;
    for (int i = 1; i < MT_N; i++)
        r->mt[i] = 1812433253U * (r->mt[i - 1] ^ (r->mt[i - 1] >> 30)) + (uint32_t)i;
    r->index = MT_N;
}

/* random.Random(seed) for a seed from 0 to 2**64 - 1 (init_by_array on its 32-bit words). */
static void mt_seed(MT *r, uint64_t seed) {
    uint32_t key[2] = {(uint32_t)seed, (uint32_t)(seed >> 32)};
    int length = key[1] ? 2 : 1;
    uint32_t *mt = r->mt;
    mt_init_genrand(r, 19650218U);
    int i = 1, j = 0;
    for (int k = MT_N > length ? MT_N : length; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1664525U)) + key[j] + (uint32_t)j;
        i++;
        j++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
        if (j >= length) j = 0;
    }
    for (int k = MT_N - 1; k; k--) {
        mt[i] = (mt[i] ^ ((mt[i - 1] ^ (mt[i - 1] >> 30)) * 1566083941U)) - (uint32_t)i;
        i++;
        if (i >= MT_N) {
            mt[0] = mt[MT_N - 1];
            i = 1;
        }
    }
    mt[0] = 0x80000000U;
}

/* A generator from a random.Random's getstate() tuple, or from an int seed. */
static int mt_from_py(PyObject *obj, MT *r) {
    if (PyLong_Check(obj)) {
        unsigned long long seed = PyLong_AsUnsignedLongLong(obj);
        if (seed == (unsigned long long)-1 && PyErr_Occurred()) return -1;
        mt_seed(r, seed);
        return 0;
    }
    if (!PyTuple_Check(obj) || PyTuple_GET_SIZE(obj) != 3) {
        PyErr_SetString(PyExc_TypeError, "expected random.Random().getstate() or an int seed");
        return -1;
    }
    PyObject *words = PyTuple_GET_ITEM(obj, 1);
    if (!PyTuple_Check(words) || PyTuple_GET_SIZE(words) != MT_N + 1) {
        PyErr_SetString(PyExc_ValueError, "not a Mersenne Twister state");
        return -1;
    }
    for (int i = 0; i < MT_N; i++) {
        unsigned long w = PyLong_AsUnsignedLong(PyTuple_GET_ITEM(words, i));
        if (w == (unsigned long)-1 && PyErr_Occurred()) return -1;
        r->mt[i] = (uint32_t)w;
    }
    long index = PyLong_AsLong(PyTuple_GET_ITEM(words, MT_N));
    if (index == -1 && PyErr_Occurred()) return -1;
    if (index < 0 || index > MT_N) {
        PyErr_SetString(PyExc_ValueError, "not a Mersenne Twister state");
        return -1;
    }
    r->index = (int)index;
    return 0;
}

/* The state in getstate()'s form: (3, (624 words..., index), None). */
static PyObject *mt_to_py(const MT *r) {
    PyObject *words = PyTuple_New(MT_N + 1);
    if (!words) return NULL;
    for (int i = 0; i < MT_N; i++) {
        PyObject *w = PyLong_FromUnsignedLong(r->mt[i]);
        if (!w) {
            Py_DECREF(words);
            return NULL;
        }
        PyTuple_SET_ITEM(words, i, w);
    }
    PyTuple_SET_ITEM(words, MT_N, PyLong_FromLong(r->index));
    return Py_BuildValue("(iNO)", 3, words, Py_None);
}

/* ------------------------------------------------------------------ deal */

#define GOLDEN 0x9E3779B97F4A7C15ULL
#define MIX1 0xBF58476D1CE4E5B9ULL
#define MIX2 0x94D049BB133111EBULL

static uint64_t splitmix64_output(uint64_t seed, uint64_t index) {
    uint64_t state = seed + (index + 1) * GOLDEN;
    uint64_t z = (state ^ (state >> 30)) * MIX1;
    z = (z ^ (z >> 27)) * MIX2;
    return z ^ (z >> 31);
}

/* The unshuffled pack in face order (Deck.cards()); its size. */
static int pack_of(int double_deck, uint8_t *pack) {
    int n = 0;
    for (int face = 0; face < FACES; face++) {
        int copies = double_deck ? (face % 6 == 5 ? 0 : 4) : 2;
        for (int c = 0; c < copies; c++) pack[n++] = (uint8_t)face;
    }
    return n;
}

/* engine.rng.shuffle: Fisher-Yates with Lemire's bounded draws, two words an output. */
static void shuffle_pack(uint8_t *items, int n, uint64_t seed) {
    uint64_t state = seed;
    int64_t spare = -1;
    for (int i = n - 1; i > 0; i--) {
        uint64_t bound = (uint64_t)i + 1, product, low, word;
        for (;;) {
            if (spare < 0) {
                state += GOLDEN;
                uint64_t z = (state ^ (state >> 30)) * MIX1;
                z = (z ^ (z >> 27)) * MIX2;
                z ^= z >> 31;
                word = z >> 32;
                spare = (int64_t)(z & 0xFFFFFFFFULL);
            } else {
                word = (uint64_t)spare;
                spare = -1;
            }
            product = word * bound;
            low = product & 0xFFFFFFFFULL;
            if (low >= bound || low >= ((1ULL << 32) - bound) % bound) break;
        }
        int j = (int)(product >> 32);
        uint8_t t = items[i];
        items[i] = items[j];
        items[j] = t;
    }
}

/* ------------------------------------------------------------------ rules */

enum { HEAD_ALWAYS = 0, HEAD_TRUMP_LED = 1, HEAD_LEAD_SUIT = 2, HEAD_NEVER = 3 };
enum { MADE = 0, SET = 1, THROWN_IN = 2, NO_MARRIAGE = 3, PASSED_OUT = 4 };
enum {
    PH_AUCTION,
    PH_TRUMP,
    PH_PASS_TO,
    PH_PASS_BACK,
    PH_BURY,
    PH_THROW_IN,
    PH_TRICKS,
    PH_MELD,
    PH_PLAY_OUT,
    PH_OVER
};

/* Two-hand's melds (engine/twohand.py _candidates): every meld of table 3.1, in a fixed
   order that `laid` reports by index: the run, the double run, the royal marriage, the
   marriages of the three other suits in suit order, the dix, the pinochle, the double
   pinochle, then aces, kings, queens and jacks around, each single then double. */
#define CANDIDATES 17
enum { SEQUENCE = 1, PINOCHLE_CLASS = 2, AROUND = 4 };

typedef struct {
    int nfaces, klass, value, present;
    int face[5], need[5]; /* faces in face order, the copies each needs */
} Candidate;

typedef struct {
    int players, hand_size, double_deck, head, if_winning, overtrump;
    int points[FACES];
    int last_bonus;
    int run[5], aces[5], kings[5], queens[5], jacks[5], pinochle[5];
    int royal, marriage, dix, run_includes_marriage, meld_needs_trick;
    int nbids, raise_limit, pass_with_help, dealer_stuck, trump_needs_marriage;
    int pass_count, throw_in, widow, bury_meld_cards;
    int turned_dix, dix_exchange;
    int bids[MAX_BIDS];
    Candidate candidates[4][CANDIDATES]; /* two-hand: by trump */
} Config;

static int read_ints(PyObject *seq, int *out, int size, const char *what) {
    PyObject *fast = PySequence_Fast(seq, what);
    if (!fast) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(fast);
    if (n > size) {
        Py_DECREF(fast);
        PyErr_Format(PyExc_ValueError, "%s: at most %d values", what, size);
        return -1;
    }
    for (int i = 0; i < size; i++) out[i] = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long v = int_value(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return (int)n;
}

/* ``seats`` count vectors of FACES ints, one a seat, into ``hands``: -1 with the error set
 * (``wrong`` when the sequence has another length). */
static int read_hands(PyObject *obj, int hands[][FACES], int seats, const char *wrong) {
    PyObject *fast = PySequence_Fast(obj, "hands");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != seats) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, wrong);
        return -1;
    }
    for (int s = 0; s < seats; s++)
        if (read_ints(PySequence_Fast_GET_ITEM(fast, s), hands[s], FACES, "hand") < 0) {
            Py_DECREF(fast);
            return -1;
        }
    Py_DECREF(fast);
    return 0;
}

static void candidate(Candidate *m, int klass, int value, int times, const int *faces, int n) {
    m->nfaces = n;
    m->klass = klass;
    m->value = value;
    m->present = 1;
    for (int i = 0; i < n; i++) {
        m->face[i] = faces[i];
        m->need[i] = times;
    }
}

/* Two-hand's melds with this trump, in the order of CANDIDATES. */
static void candidates_of(const Config *c, int trump, Candidate *out) {
    int base = trump * 6, k = 0;
    int run[5] = {base, base + 1, base + 2, base + 3, base + 4};
    candidate(&out[k++], SEQUENCE, c->run[1], 1, run, 5);
    candidate(&out[k++], SEQUENCE, c->run[2], 2, run, 5);
    candidate(&out[k++], SEQUENCE, c->royal, 1, run + 2, 2);
    for (int suit = 0; suit < 4; suit++) {
        if (suit == trump) continue;
        int pair[2] = {suit * 6 + 2, suit * 6 + 3};
        candidate(&out[k++], SEQUENCE, c->marriage, 1, pair, 2);
    }
    int nine = base + 5;
    candidate(&out[k], SEQUENCE, c->dix, 1, &nine, 1);
    out[k++].present = c->dix != 0; /* a table without a dix has no such meld */
    int pinochle[2] = {3, 16};      /* QS and JD */
    candidate(&out[k++], PINOCHLE_CLASS, c->pinochle[1], 1, pinochle, 2);
    candidate(&out[k++], PINOCHLE_CLASS, c->pinochle[2], 2, pinochle, 2);
    const int ranks[4] = {0, 2, 3, 4};
    const int *values[4] = {c->aces, c->kings, c->queens, c->jacks};
    for (int a = 0; a < 4; a++) {
        int around[4] = {ranks[a], 6 + ranks[a], 12 + ranks[a], 18 + ranks[a]};
        candidate(&out[k++], AROUND, values[a][1], 1, around, 4);
        candidate(&out[k++], AROUND, values[a][2], 2, around, 4);
    }
}

/* The tuple of engine/kernel.py config_of, in its order. */
static int config_from_py(PyObject *obj, Config *c) {
    PyObject *points, *run, *aces, *kings, *queens, *jacks, *pinochle, *bids;
    if (!PyArg_ParseTuple(obj, "iiiiiiOiOOOOOOiiiiiOiiiiiiiiii:config", &c->players,
                          &c->hand_size, &c->double_deck, &c->head, &c->if_winning,
                          &c->overtrump, &points, &c->last_bonus, &run, &aces, &kings, &queens,
                          &jacks, &pinochle, &c->royal, &c->marriage, &c->dix,
                          &c->run_includes_marriage, &c->meld_needs_trick, &bids,
                          &c->raise_limit, &c->pass_with_help, &c->dealer_stuck,
                          &c->trump_needs_marriage, &c->pass_count, &c->throw_in, &c->widow,
                          &c->bury_meld_cards, &c->turned_dix, &c->dix_exchange))
        return -1;
    if (c->players < 2 || c->players > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "the kernel plays two-, three- and four-hand hands");
        return -1;
    }
    if (read_ints(points, c->points, FACES, "counter points") != FACES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "24 counter points");
        return -1;
    }
    if (read_ints(run, c->run, 5, "run") < 0 || read_ints(aces, c->aces, 5, "aces") < 0 ||
        read_ints(kings, c->kings, 5, "kings") < 0 ||
        read_ints(queens, c->queens, 5, "queens") < 0 ||
        read_ints(jacks, c->jacks, 5, "jacks") < 0 ||
        read_ints(pinochle, c->pinochle, 5, "pinochle") < 0)
        return -1;
    c->nbids = read_ints(bids, c->bids, MAX_BIDS, "bids");
    if (c->nbids < 0) return -1;
    int deck = c->double_deck ? 80 : 48;
    if (c->players == 2) {
        int stock = deck - 2 * c->hand_size;
        if (c->double_deck || c->hand_size < 1 || stock < 2 || stock % 2 || c->widow) {
            PyErr_SetString(PyExc_ValueError, "the hands and the stock do not make the pack");
            return -1;
        }
        for (int trump = 0; trump < 4; trump++) candidates_of(c, trump, c->candidates[trump]);
        return 0;
    }
    if (c->hand_size * c->players + c->widow != deck || c->pass_count > c->hand_size ||
        c->widow > 48) {
        PyErr_SetString(PyExc_ValueError, "the hands and the widow do not make the pack");
        return -1;
    }
    return 0;
}

#define CONFIG_CAPSULE "engine._kernel.Config"

/* The rules of a call: a capsule of `config` (parsed once), or the tuple parsed now. */
static Config *config_acquire(PyObject *obj) {
    if (PyCapsule_CheckExact(obj)) return PyCapsule_GetPointer(obj, CONFIG_CAPSULE);
    Config *c = PyMem_Malloc(sizeof(Config));
    if (!c) {
        PyErr_NoMemory();
        return NULL;
    }
    if (config_from_py(obj, c) < 0) {
        PyMem_Free(c);
        return NULL;
    }
    return c;
}

static void config_release(PyObject *obj, Config *c) {
    if (c && !PyCapsule_CheckExact(obj)) PyMem_Free(c);
}

static void config_free(PyObject *capsule) {
    PyMem_Free(PyCapsule_GetPointer(capsule, CONFIG_CAPSULE));
}

static PyObject *k_config(PyObject *self, PyObject *obj) {
    Config *c = config_acquire(obj);
    if (!c) return NULL;
    if (PyCapsule_CheckExact(obj)) return Py_NewRef(obj);
    PyObject *capsule = PyCapsule_New(c, CONFIG_CAPSULE, config_free);
    if (!capsule) PyMem_Free(c);
    return capsule;
}

static const uint32_t SUIT_MASK[4] = {0x3Fu, 0x3Fu << 6, 0x3Fu << 12, 0x3Fu << 18};

/* The faces of the same suit that beat `face`. */
static inline uint32_t stronger(int face) {
    return ((1u << (face % 6)) - 1u) << (6 * (face / 6));
}

/* The faces that, played after `win`, take the lead of the trick (TAKES). */
static inline uint32_t takes(int win, int trump) {
    return stronger(win) | (win / 6 != trump ? SUIT_MASK[trump] : 0u);
}

/* Without -mpopcnt (the build is portable) __builtin_popcount is a library call. */
static inline int popcount(uint32_t m) {
    m = m - ((m >> 1) & 0x55555555u);
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (int)((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int lowest(uint32_t m) { return __builtin_ctz(m); }

/* engine.tricks.legal_mask. */
static uint32_t legal_mask(uint32_t hand, int led, int winner, int led_high, int trump,
                           int head, int if_winning, int overtrump) {
    if (led < 0) return hand;
    uint32_t follow = hand & SUIT_MASK[led];
    if (follow) {
        if (head == HEAD_NEVER) return follow;
        if (head == HEAD_LEAD_SUIT) {
            uint32_t up = follow & stronger(led_high);
            return up ? up : follow;
        }
        if (winner / 6 != led) return follow;
        if (head == HEAD_TRUMP_LED && led != trump) return follow;
        uint32_t up = follow & stronger(winner);
        return up ? up : follow;
    }
    uint32_t trumps = hand & SUIT_MASK[trump];
    if (!trumps) return hand;
    uint32_t winning = winner / 6 == trump ? trumps & stronger(winner) : trumps;
    if (if_winning) {
        if (!winning) return hand;
        return overtrump ? winning : trumps;
    }
    if (overtrump && winning) return winning;
    return trumps;
}

static inline int min2(int a, int b) { return a < b ? a : b; }
static inline int min4(int a, int b, int c, int d) { return min2(min2(a, b), min2(c, d)); }

/* engine.meld.meld_total. */
static int meld_total(const uint8_t *counts, int trump, const Config *c) {
    int base = trump * 6;
    int ace = counts[base], ten = counts[base + 1], king = counts[base + 2];
    int queen = counts[base + 3], jack = counts[base + 4], nine = counts[base + 5];
    int runs = min2(min4(ace, ten, king, queen), jack);
    if (c->run_includes_marriage) {
        king -= runs;
        queen -= runs;
    }
    int total = c->run[runs] + min2(king, queen) * c->royal + nine * c->dix;
    int marriages = 0;
    for (int s = 0; s < 24; s += 6)
        if (s != base) marriages += min2(counts[s + 2], counts[s + 3]);
    total += marriages * c->marriage;
    total += c->aces[min4(counts[0], counts[6], counts[12], counts[18])];
    total += c->kings[min4(counts[2], counts[8], counts[14], counts[20])];
    total += c->queens[min4(counts[3], counts[9], counts[15], counts[21])];
    total += c->jacks[min4(counts[4], counts[10], counts[16], counts[22])];
    total += c->pinochle[min2(counts[3], counts[16])];
    return total;
}

/* engine.cutthroat._meld_cards: the copies of each face some meld item of the hand needs
   (a card serves once per item; a face needs the most copies any item asks for). */
static void meld_cards(const uint8_t *counts, int trump, const Config *c, int *needed) {
    int base = trump * 6;
    for (int f = 0; f < FACES; f++) needed[f] = 0;
#define NEED(face, n)                                  \
    do {                                               \
        if ((n) > needed[face]) needed[face] = (n);    \
    } while (0)
    int runs = FACES;
    for (int r = 0; r < 5; r++) runs = min2(runs, counts[base + r]);
    for (int r = 0; r < 5 && runs; r++) NEED(base + r, runs);
    int k = counts[base + 2], q = counts[base + 3];
    int royal = c->run_includes_marriage ? min2(k - runs, q - runs) : min2(k, q);
    if (royal) {
        NEED(base + 2, royal);
        NEED(base + 3, royal);
    }
    for (int s = 0; s < 24; s += 6) {
        if (s == base) continue;
        int pairs = min2(counts[s + 2], counts[s + 3]);
        if (pairs) {
            NEED(s + 2, pairs);
            NEED(s + 3, pairs);
        }
    }
    if (counts[base + 5] && c->dix) NEED(base + 5, counts[base + 5]);
    int pin = min2(counts[3], counts[16]);
    if (pin) {
        NEED(3, pin);
        NEED(16, pin);
    }
    static const int around_ranks[4] = {0, 2, 3, 4};
    for (int a = 0; a < 4; a++) {
        int r = around_ranks[a];
        int t = min4(counts[r], counts[6 + r], counts[12 + r], counts[18 + r]);
        if (t)
            for (int s = 0; s < 24; s += 6) NEED(s + r, t);
    }
#undef NEED
}

/* ------------------------------------------------------------------ a hand */

typedef struct {
    uint8_t counts[MAX_SEATS][FACES];
    uint32_t masks[MAX_SEATS];
    uint8_t widow[48]; /* the rest of the pack, as dealt: a widow, or two-hand's stock */
    int nwidow;
    uint8_t buried[FACES];
    int nburied;
    int dealer, turn, phase, outcome;
    int passed[MAX_SEATS], active, high_rung, high_bidder, declarer, bid, trump;
    int melds[MAX_SEATS], taken[MAX_SEATS], won[MAX_SEATS], scores[MAX_SEATS];
    int ntricks, actions;
    int tcards[MAX_SEATS], tn, leader, led, win, win_seat, led_high;
    /* What a detailed result reports: every card played, every call of the auction. */
    uint8_t plays[80];
    int nplays;
    int calls[64];
    int ncalls;
    /* Two-hand: each meld-phase decision (-1 no meld, -2 the dix exchange, else the
       index of the meld in CANDIDATES) and the options it had (bit code + 2). */
    int laid[32], options[32];
    int nlaid;
    /* Two-hand: the stock, drawn from its end (index 0: the turned-up card, drawn last),
       and each seat's cards on the table: per face, the meld classes of each copy laid. */
    uint8_t stock[48];
    int nstock;
    uint8_t table[2][FACES][4];
    uint8_t ntable[2][FACES];
} Hand;

static inline int side_of(const Config *c, int seat) { return c->players == 4 ? seat % 2 : seat; }
static inline int nsides(const Config *c) { return c->players == 4 ? 2 : c->players; }

static void mask_update(Hand *h, int seat) {
    uint32_t m = 0;
    for (int f = 0; f < FACES; f++)
        if (h->counts[seat][f]) m |= 1u << f;
    h->masks[seat] = m;
}

/* TrickTakingState.new: shuffle, then blocks from the seat left of the dealer. */
static void deal_hand(const Config *c, uint64_t seed, int dealer, Hand *h) {
    uint8_t pack[96];
    int n = pack_of(c->double_deck, pack);
    shuffle_pack(pack, n, seed);
    /* Everything but the reports' buffers, which are written before they are read. */
    memset(h, 0, offsetof(Hand, plays));
    h->nplays = h->ncalls = h->nlaid = 0;
    for (int b = 0; b < c->players; b++) {
        int seat = (dealer + 1 + b) % c->players;
        uint32_t mask = 0;
        for (int i = b * c->hand_size; i < (b + 1) * c->hand_size; i++) {
            h->counts[seat][pack[i]]++;
            mask |= 1u << pack[i];
        }
        h->masks[seat] = mask;
    }
    for (int i = c->players * c->hand_size; i < n; i++) h->widow[h->nwidow++] = pack[i];
    h->dealer = dealer;
    h->turn = (dealer + 1) % c->players;
    h->phase = PH_AUCTION;
    h->active = c->players;
    h->high_rung = h->high_bidder = h->declarer = h->trump = -1;
    h->led = -1;
}

static void finish(const Config *c, Hand *h, int outcome);

static int dealer_stuck(const Config *c, const Hand *h) {
    return h->active == 1 && h->high_bidder < 0 && c->dealer_stuck;
}

static int has_marriage(const Hand *h, int seat, int suit) {
    return h->counts[seat][suit * 6 + 2] && h->counts[seat][suit * 6 + 3];
}

/* The suits the declarer may name, in suit order; their number. */
static int trump_choices(const Config *c, const Hand *h, int *suits) {
    int n = 0;
    for (int s = 0; s < 4; s++)
        if (!c->trump_needs_marriage || has_marriage(h, h->declarer, s)) suits[n++] = s;
    return n;
}

static void start_tricks(Hand *h) {
    h->phase = PH_TRICKS;
    h->turn = h->declarer;
}

static void do_meld(const Config *c, Hand *h) {
    for (int s = 0; s < c->players; s++) h->melds[s] = meld_total(h->counts[s], h->trump, c);
    h->turn = h->declarer;
    if (c->throw_in)
        h->phase = PH_THROW_IN;
    else
        start_tricks(h);
}

static void end_auction(const Config *c, Hand *h) {
    h->declarer = h->turn = h->high_bidder;
    h->bid = c->bids[h->high_rung];
    if (c->widow) { /* the three-hand widow goes to the declarer */
        for (int i = 0; i < h->nwidow; i++) h->counts[h->declarer][h->widow[i]]++;
        mask_update(h, h->declarer);
    }
    int suits[4];
    if (c->trump_needs_marriage && !trump_choices(c, h, suits)) {
        finish(c, h, NO_MARRIAGE);
        return;
    }
    h->phase = PH_TRUMP;
}

static void next_bidder(const Config *c, Hand *h) {
    if (h->active == 0) {
        finish(c, h, PASSED_OUT);
        return;
    }
    if (h->active == 1 && h->high_bidder >= 0) {
        end_auction(c, h);
        return;
    }
    int seat = (h->turn + 1) % c->players;
    while (h->passed[seat]) seat = (seat + 1) % c->players;
    h->turn = seat;
}

/* TrickTakingState._random_auction_action: passes first, then the rungs allowed. */
static void random_call(const Config *c, Hand *h, MT *r) {
    int npass, low, high;
    if (dealer_stuck(c, h)) {
        npass = 0;
        low = 0;
        high = 1;
    } else {
        npass = c->pass_with_help ? 2 : 1;
        low = h->high_rung + 1;
        high = c->nbids;
        if (c->raise_limit >= 0 && low + c->raise_limit < high) high = low + c->raise_limit;
        if (high < low) high = low;
    }
    int choice = mt_choice(r, npass + (high - low));
    if (h->ncalls < 64) h->calls[h->ncalls++] = choice < npass ? -1 - choice : low + choice - npass;
    h->actions++;
    if (choice < npass) {
        h->passed[h->turn] = 1;
        h->active--;
    } else {
        h->high_rung = low + choice - npass;
        h->high_bidder = h->turn;
    }
    next_bidder(c, h);
}

/* Cards of a count vector in face order (cards_of), as random.sample's population. */
static int population(const uint8_t *counts, uint8_t *out) {
    int n = 0;
    for (int f = 0; f < FACES; f++)
        for (int k = 0; k < counts[f]; k++) out[n++] = (uint8_t)f;
    return n;
}

/* random.sample(population, k) of CPython 3.11 (a population of at most 96 cards). */
static int sample(MT *r, const uint8_t *pop, int n, int k, uint8_t *result) {
    int setsize = 21;
    if (k > 5) {
        int power = 1; /* 4 ** ceil(log(3k, 4)) */
        while (power < 3 * k) power *= 4;
        setsize += power;
    }
    if (k > n || n > 96) return -1;
    if (n > setsize) { /* its set branch: draws among all n, again on a repeat */
        uint8_t selected[96] = {0};
        for (int i = 0; i < k; i++) {
            int j = (int)mt_below(r, (uint32_t)n);
            while (selected[j]) j = (int)mt_below(r, (uint32_t)n);
            selected[j] = 1;
            result[i] = pop[j];
        }
        return 0;
    }
    uint8_t pool[96];
    memcpy(pool, pop, (size_t)n);
    for (int i = 0; i < k; i++) {
        int j = (int)mt_below(r, (uint32_t)(n - i));
        result[i] = pool[j];
        pool[j] = pool[n - i - 1];
    }
    return 0;
}

static int random_give(const Config *c, Hand *h, MT *r) {
    uint8_t pop[FACES * 4], cards[FACES * 4];
    int giver = h->turn, receiver = (giver + 2) % 4;
    int n = population(h->counts[giver], pop);
    if (sample(r, pop, n, c->pass_count, cards) < 0) return -1;
    for (int i = 0; i < c->pass_count; i++) {
        h->counts[giver][cards[i]]--;
        h->counts[receiver][cards[i]]++;
    }
    mask_update(h, giver);
    mask_update(h, receiver);
    h->actions++;
    if (h->phase == PH_PASS_TO) {
        h->phase = PH_PASS_BACK;
        h->turn = receiver;
    } else {
        do_meld(c, h);
    }
    return 0;
}

static int random_bury(const Config *c, Hand *h, MT *r) {
    uint8_t *hand = h->counts[h->declarer];
    int free_[FACES], needed[FACES], total = 0;
    if (c->bury_meld_cards) {
        for (int f = 0; f < FACES; f++) free_[f] = hand[f];
    } else {
        meld_cards(hand, h->trump, c, needed);
        for (int f = 0; f < FACES; f++) total += free_[f] = hand[f] - needed[f];
        if (total < c->widow)
            for (int f = 0; f < FACES; f++) free_[f] = hand[f];
    }
    uint8_t pop[FACES * 4], cards[FACES * 4];
    int n = 0;
    for (int f = 0; f < FACES; f++)
        for (int k = 0; k < free_[f]; k++) pop[n++] = (uint8_t)f;
    if (sample(r, pop, n, c->widow, cards) < 0) return -1;
    for (int i = 0; i < c->widow; i++) {
        hand[cards[i]]--;
        h->buried[h->nburied++] = cards[i];
    }
    mask_update(h, h->declarer);
    h->actions++;
    do_meld(c, h);
    return 0;
}

/* Play `face` for the seat to move; 1 when it closes the trick (scored, the winner to
   lead). */
static inline int add_card(const Config *c, Hand *h, int face) {
    int seat = h->turn;
    if (!--h->counts[seat][face]) h->masks[seat] &= ~(1u << face);
    if (h->nplays < 80) h->plays[h->nplays++] = (uint8_t)face;
    h->actions++;
    if (h->tn) {
        if (takes(h->win, h->trump) >> face & 1) {
            h->win = face;
            h->win_seat = seat;
        }
        if (face / 6 == h->led && face < h->led_high) h->led_high = face;
    } else {
        h->leader = h->win_seat = seat;
        h->led = face / 6;
        h->win = h->led_high = face;
    }
    h->tcards[h->tn++] = face;
    if (h->tn < c->players) {
        h->turn = (seat + 1) % c->players;
        return 0;
    }
    int side = side_of(c, h->win_seat), pot = 0;
    for (int i = 0; i < h->tn; i++) pot += c->points[h->tcards[i]];
    h->taken[side] += pot;
    h->won[side]++;
    h->ntricks++;
    h->tn = 0;
    h->led = -1;
    h->turn = h->win_seat;
    return 1;
}

/* Play `face` for the seat to move; closes the trick and the hand when they end. */
static void play_card(const Config *c, Hand *h, int face) {
    if (add_card(c, h, face) && h->ntricks == c->hand_size) finish(c, h, MADE);
}

static int extra_points(const Config *c, const Hand *h, int side) {
    if (!c->widow || side != h->declarer || !h->ntricks) return 0;
    int p = 0;
    for (int i = 0; i < h->nburied; i++) p += c->points[h->buried[i]];
    return p;
}

static int side_meld(const Config *c, const Hand *h, int side) {
    int m = 0;
    for (int s = 0; s < c->players; s++)
        if (side_of(c, s) == side) m += h->melds[s];
    return m;
}

static int meld_counts(const Config *c, const Hand *h, int side) {
    return !(c->meld_needs_trick && h->ntricks && !h->won[side]);
}

/* TrickTakingState._finish and _score. */
static void finish(const Config *c, Hand *h, int outcome) {
    int melded = h->phase == PH_THROW_IN || h->phase == PH_TRICKS || h->phase == PH_PLAY_OUT;
    if (outcome == MADE) {
        h->taken[side_of(c, h->win_seat)] += c->last_bonus;
        if (h->declarer >= 0) {
            int side = side_of(c, h->declarer);
            int declared = (meld_counts(c, h, side) ? side_meld(c, h, side) : 0) +
                           h->taken[side] + extra_points(c, h, side);
            outcome = declared >= h->bid ? MADE : SET;
        }
    }
    h->outcome = outcome;
    h->phase = PH_OVER;
    h->turn = -1;
    int shown = melded && outcome != NO_MARRIAGE;
    int declaring = h->declarer >= 0 ? side_of(c, h->declarer) : -1;
    for (int side = 0; side < nsides(c); side++) {
        int counted = shown && meld_counts(c, h, side);
        int total = (counted ? side_meld(c, h, side) : 0) + h->taken[side] + extra_points(c, h, side);
        int score;
        if (outcome == PASSED_OUT)
            score = 0;
        else if (side == declaring)
            score = outcome == MADE ? total : -h->bid;
        else if (outcome == NO_MARRIAGE)
            score = 0;
        else
            score = total;
        h->scores[side] = score;
    }
    if (!shown)
        for (int s = 0; s < c->players; s++) h->melds[s] = 0;
}

static void random_card(const Config *c, Hand *h, MT *r) {
    uint32_t mask = legal_mask(h->masks[h->turn], h->led, h->win, h->led_high, h->trump, c->head,
                               c->if_winning, c->overtrump);
    int skip = mt_choice(r, popcount(mask));
    while (skip--) mask &= mask - 1;
    play_card(c, h, lowest(mask));
}

/* HandState.play_randomly / CutthroatState.play_randomly (throw-in rate 0: a draw is
   spent and the declarer plays on). -1 when the hand needs what the kernel lacks. */
static int play_randomly(const Config *c, Hand *h, MT *r) {
    while (h->phase != PH_OVER) {
        switch (h->phase) {
        case PH_TRICKS:
            random_card(c, h, r);
            break;
        case PH_PASS_TO:
        case PH_PASS_BACK:
            if (random_give(c, h, r) < 0) return -1;
            break;
        case PH_BURY:
            if (random_bury(c, h, r) < 0) return -1;
            break;
        case PH_THROW_IN:
            mt_random(r);
            h->actions++;
            start_tricks(h);
            break;
        case PH_TRUMP: {
            int suits[4];
            int n = trump_choices(c, h, suits);
            h->trump = suits[mt_choice(r, n)];
            h->actions++;
            if (c->players == 4 && c->pass_count) {
                h->phase = PH_PASS_TO;
                h->turn = (h->declarer + 2) % 4;
            } else if (c->players == 3 && c->widow) {
                h->phase = PH_BURY;
            } else {
                do_meld(c, h);
            }
            break;
        }
        default:
            random_call(c, h, r);
        }
    }
    return 0;
}

/* ------------------------------------------------------------------ two-hand */

/* TwoHandState._begin: the rest of the pack as the stock, the card after the hands
   turned up for trump and drawn last (the dealer scores a turned-up dix). */
static void twohand_begin(const Config *c, Hand *h) {
    int n = h->nwidow;
    h->nstock = n;
    h->stock[0] = h->widow[0];
    for (int i = 1; i < n; i++) h->stock[i] = h->widow[n - i];
    int turned = h->stock[0];
    h->trump = turned / 6;
    memset(h->ntable, 0, sizeof(h->ntable));
    if (turned % 6 == 5) h->melds[h->dealer] += c->turned_dix;
    h->phase = PH_TRICKS;
}

static const int CLASS_COUNT[8] = {0, 1, 1, 2, 1, 2, 2, 3};

/* _fewest_classes_last: copies in the most classes first, then by their bits. */
static inline int before(uint8_t a, uint8_t b) {
    return CLASS_COUNT[a] != CLASS_COUNT[b] ? CLASS_COUNT[a] > CLASS_COUNT[b] : a < b;
}

static void order_copies(uint8_t *copies, int n) {
    for (int i = 1; i < n; i++)
        for (int j = i; j > 0 && before(copies[j], copies[j - 1]); j--) {
            uint8_t t = copies[j];
            copies[j] = copies[j - 1];
            copies[j - 1] = t;
        }
}

/* TwoHandState._placement: whether `seat` may lay the meld (its cards held, a card
   re-used only outside its class, at least one card new to the table) and, when
   `apply`, the table after it: re-used copies those in the most classes first, the
   first face with a concealed copy taking the new card when every face could re-use. */
static int placement(Hand *h, int seat, const Candidate *m, int apply) {
    const uint8_t *hand = h->counts[seat];
    int from[5], fresh[5], concealed[5], nreusable[5], fresh_total = 0, bit = m->klass;
    uint8_t reusable[5][4];
    for (int i = 0; i < m->nfaces; i++) {
        int face = m->face[i], need = m->need[i], n = h->ntable[seat][face];
        if (hand[face] < need) return 0;
        concealed[i] = hand[face] - n;
        nreusable[i] = 0;
        for (int k = 0; k < n; k++)
            if (!(h->table[seat][face][k] & bit)) reusable[i][nreusable[i]++] = h->table[seat][face][k];
        if (need > nreusable[i] + concealed[i]) return 0;
        order_copies(reusable[i], nreusable[i]);
        from[i] = need < nreusable[i] ? need : nreusable[i];
        fresh[i] = need - from[i];
        fresh_total += fresh[i];
    }
    if (!fresh_total) {
        int i = 0;
        while (i < m->nfaces && !concealed[i]) i++;
        if (i == m->nfaces) return 0;
        from[i]--;
        fresh[i]++;
    }
    if (!apply) return 1;
    for (int i = 0; i < m->nfaces; i++) {
        uint8_t *copies = h->table[seat][m->face[i]];
        int n = h->ntable[seat][m->face[i]];
        for (int j = 0; j < from[i]; j++) {
            int k = 0;
            while (copies[k] != reusable[i][j]) k++;
            copies[k] = copies[--n];
        }
        for (int j = 0; j < from[i]; j++) copies[n++] = (uint8_t)(reusable[i][j] | bit);
        for (int j = 0; j < fresh[i]; j++) copies[n++] = (uint8_t)bit;
        h->ntable[seat][m->face[i]] = (uint8_t)n;
    }
    return 1;
}

/* TwoHandState._can_exchange: a dix in the hand, not on the table, and the turned-up
   card not a dix itself. */
static int can_exchange(const Hand *h) {
    int seat = h->turn, nine = h->trump * 6 + 5;
    return h->nstock && h->stock[0] != nine && h->counts[seat][nine] > h->ntable[seat][nine];
}

/* TwoHandState._draw: the winner draws first; an empty stock starts the play-out and
   the melded cards go back to the hands. */
static void twohand_draw(Hand *h) {
    int winner = h->turn;
    for (int k = 0; k < 2; k++) {
        int seat = k ? 1 - winner : winner, face = h->stock[--h->nstock];
        h->counts[seat][face]++;
        h->masks[seat] |= 1u << face;
    }
    if (h->nstock) {
        h->phase = PH_TRICKS;
    } else {
        h->phase = PH_PLAY_OUT;
        memset(h->ntable, 0, sizeof(h->ntable));
    }
}

/* The winner of a stock trick: asked only when a meld or the exchange is possible, it
   chooses uniformly among no-meld, the exchange and the melds, in that order (the
   order of TwoHandState._legal_list). */
static void random_meld(const Config *c, Hand *h, MT *r) {
    int seat = h->turn, choices[2 + CANDIDATES], n = 0;
    const Candidate *candidates = c->candidates[h->trump];
    choices[n++] = -1;
    if (can_exchange(h)) choices[n++] = -2;
    for (int k = 0; k < CANDIDATES; k++)
        if (candidates[k].present && placement(h, seat, &candidates[k], 0)) choices[n++] = k;
    if (n == 1) {
        twohand_draw(h);
        return;
    }
    int pick = choices[mt_choice(r, n)];
    if (h->nlaid < 32) {
        int options = 0;
        for (int i = 0; i < n; i++) options |= 1 << (choices[i] + 2);
        h->options[h->nlaid] = options;
        h->laid[h->nlaid++] = pick;
    }
    h->actions++;
    if (pick == -2) {
        int nine = h->trump * 6 + 5, turned = h->stock[0];
        if (!--h->counts[seat][nine]) h->masks[seat] &= ~(1u << nine);
        h->counts[seat][turned]++;
        h->masks[seat] |= 1u << turned;
        h->stock[0] = (uint8_t)nine;
        h->melds[seat] += c->dix_exchange;
    } else if (pick >= 0) {
        placement(h, seat, &candidates[pick], 1);
        h->melds[seat] += candidates[pick].value;
    }
    twohand_draw(h);
}

/* A card chosen uniformly among the legal ones (any card of the hand in the stock
   phase); a card melded leaves the table first, the copy in the most classes. */
static void twohand_card(const Config *c, Hand *h, MT *r) {
    int seat = h->turn;
    uint32_t mask = h->masks[seat];
    if (h->phase == PH_PLAY_OUT)
        mask = legal_mask(mask, h->led, h->win, h->led_high, h->trump, c->head, c->if_winning,
                          c->overtrump);
    int skip = mt_choice(r, popcount(mask));
    while (skip--) mask &= mask - 1;
    int face = lowest(mask), n = h->ntable[seat][face];
    if (n) {
        uint8_t *copies = h->table[seat][face];
        int first = 0;
        for (int k = 1; k < n; k++)
            if (before(copies[k], copies[first])) first = k;
        copies[first] = copies[n - 1];
        h->ntable[seat][face] = (uint8_t)(n - 1);
    }
    if (!add_card(c, h, face)) return;
    if (h->phase == PH_TRICKS)
        h->phase = PH_MELD;
    else if (!h->masks[0] && !h->masks[1])
        finish(c, h, MADE);
}

/* TwoHandState.play_randomly. */
static void twohand_randomly(const Config *c, Hand *h, MT *r) {
    while (h->phase != PH_OVER) {
        if (h->phase == PH_MELD)
            random_meld(c, h, r);
        else
            twohand_card(c, h, r);
    }
}

/* ------------------------------------------------------------------ Python functions */

static PyObject *int_tuple(const int *values, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(values[i]));
    return t;
}

static PyObject *hand_detail(const Config *c, const Hand *h) {
    int sides = nsides(c);
    PyObject *calls = int_tuple(h->calls, h->ncalls);
    if (!calls) return NULL;
    return Py_BuildValue("{s:i,s:i,s:i,s:i,s:N,s:N,s:N,s:N,s:y#,s:N,s:i,s:y#,s:N,s:N}", "outcome",
                         h->outcome, "declarer", h->declarer, "bid",
                         h->declarer >= 0 ? h->bid : 0, "trump", h->trump, "melds",
                         int_tuple(h->melds, c->players), "taken", int_tuple(h->taken, sides),
                         "won", int_tuple(h->won, sides), "scores", int_tuple(h->scores, sides),
                         "plays", (const char *)h->plays, (Py_ssize_t)h->nplays, "calls", calls,
                         "actions", h->actions, "buried", (const char *)h->buried,
                         (Py_ssize_t)h->nburied, "laid", int_tuple(h->laid, h->nlaid), "options",
                         int_tuple(h->options, h->nlaid));
}

PyDoc_STRVAR(random_hands_doc,
             "random_hands(config, game_seed, first, count, rng, detail) -> (rng_state, out)\n\n"
             "Hands first .. first + count - 1 of a game: hand n dealt from\n"
             "splitmix64_output(game_seed, n) with dealer n % players, played out at random\n"
             "as play_randomly does with the generator rng (random.Random().getstate() or an\n"
             "int seed of random.Random). out: a list of dicts per hand when detail, else\n"
             "(outcome counts by code, actions, score sums by side). rng_state: the\n"
             "generator's state after, for random.Random().setstate().");

static PyObject *k_random_hands(PyObject *self, PyObject *args) {
    PyObject *config, *rng_obj;
    unsigned long long game_seed;
    long long first, count;
    int detail;
    if (!PyArg_ParseTuple(args, "OKLLOp", &config, &game_seed, &first, &count, &rng_obj, &detail))
        return NULL;
    Config *c = config_acquire(config);
    MT *r = PyMem_Malloc(sizeof(MT));
    PyObject *out = NULL, *result = NULL;
    if (!c || !r) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (mt_from_py(rng_obj, r) < 0) goto done;
    if (first < 0 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "first and count must not be negative");
        goto done;
    }
    long long outcomes[5] = {0}, actions = 0, sums[MAX_SEATS] = {0};
    out = detail ? PyList_New(0) : NULL;
    if (detail && !out) goto done;
    Hand h;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long n = first; n < first + count && !failed; n++) {
        deal_hand(c, splitmix64_output(game_seed, (uint64_t)n), (int)(n % c->players), &h);
        if (c->players == 2) {
            twohand_begin(c, &h);
            twohand_randomly(c, &h, r);
        } else if (play_randomly(c, &h, r) < 0) {
            failed = 1;
            break;
        }
        if (detail) {
            Py_BLOCK_THREADS
            PyObject *d = hand_detail(c, &h);
            int bad = !d || PyList_Append(out, d) < 0;
            Py_XDECREF(d);
            Py_UNBLOCK_THREADS
            if (bad) {
                failed = 2;
                break;
            }
        } else {
            outcomes[h.outcome]++;
            actions += h.actions;
            for (int s = 0; s < nsides(c); s++) sums[s] += h.scores[s];
        }
    }
    Py_END_ALLOW_THREADS
    if (failed == 1) PyErr_SetString(PyExc_ValueError, "a pass or bury too large for the kernel");
    if (failed) goto done;
    PyObject *state = mt_to_py(r);
    if (!state) goto done;
    if (!detail) {
        PyObject *oc = PyTuple_New(5), *ss = PyTuple_New(nsides(c));
        for (int i = 0; i < 5; i++) PyTuple_SET_ITEM(oc, i, PyLong_FromLongLong(outcomes[i]));
        for (int s = 0; s < nsides(c); s++) PyTuple_SET_ITEM(ss, s, PyLong_FromLongLong(sums[s]));
        out = Py_BuildValue("(NLN)", oc, actions, ss);
        if (!out) {
            Py_DECREF(state);
            goto done;
        }
    }
    result = Py_BuildValue("(NO)", state, out);
done:
    Py_XDECREF(out);
    config_release(config, c);
    PyMem_Free(r);
    return result;
}

static PyObject *k_shuffled_pack(PyObject *self, PyObject *args) {
    int double_deck;
    unsigned long long seed;
    if (!PyArg_ParseTuple(args, "pK", &double_deck, &seed)) return NULL;
    uint8_t pack[96];
    int n = pack_of(double_deck, pack);
    shuffle_pack(pack, n, seed);
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) PyTuple_SET_ITEM(t, i, PyLong_FromLong(pack[i]));
    return t;
}

/* deal: `(config, seed, dealer)` parsed, the hand dealt into `h`; the number of seats,
   or -1 with the error set. */
static int dealt(PyObject *args, const char *format, Hand *h) {
    PyObject *config;
    unsigned long long seed;
    int dealer;
    if (!PyArg_ParseTuple(args, format, &config, &seed, &dealer)) return -1;
    Config *c = config_acquire(config);
    if (!c) return -1;
    int players = c->players;
    if (dealer < 0 || dealer >= players) {
        PyErr_SetString(PyExc_ValueError, "the dealer is a seat");
        players = -1;
    } else {
        deal_hand(c, seed, dealer, h);
    }
    config_release(config, c);
    return players;
}

static PyObject *k_deal(PyObject *self, PyObject *args) {
    Hand h;
    int players = dealt(args, "OKi:deal", &h);
    if (players < 0) return NULL;
    PyObject *hands = PyTuple_New(players);
    for (int s = 0; s < players; s++) {
        int counts[FACES];
        for (int f = 0; f < FACES; f++) counts[f] = h.counts[s][f];
        PyTuple_SET_ITEM(hands, s, int_tuple(counts, FACES));
    }
    int rest[FACES * 4];
    for (int i = 0; i < h.nwidow; i++) rest[i] = h.widow[i];
    return Py_BuildValue("(NN)", hands, int_tuple(rest, h.nwidow));
}

static int faces_ok(const int *faces, int n) {
    for (int i = 0; i < n; i++)
        if (faces[i] < 0 || faces[i] >= FACES) return 0;
    return 1;
}

static PyObject *k_legal_mask(PyObject *self, PyObject *args) {
    unsigned long hand;
    int led, winner, led_high, trump, head, if_winning, overtrump;
    if (!PyArg_ParseTuple(args, "kiiiiipp", &hand, &led, &winner, &led_high, &trump, &head,
                          &if_winning, &overtrump))
        return NULL;
    if (led < -1 || led > 3 || trump < 0 || trump > 3 || head < 0 || head > HEAD_NEVER ||
        (led >= 0 && (winner < 0 || winner >= FACES || led_high < 0 || led_high >= FACES))) {
        PyErr_SetString(PyExc_ValueError, "a suit 0 to 3 (led: -1 leading), faces 0 to 23");
        return NULL;
    }
    return PyLong_FromUnsignedLong(legal_mask((uint32_t)hand & 0xFFFFFFu, led, winner, led_high,
                                              trump, head, if_winning, overtrump));
}

static PyObject *k_trick_winner(PyObject *self, PyObject *args) {
    PyObject *cards;
    int trump;
    if (!PyArg_ParseTuple(args, "Oi", &cards, &trump)) return NULL;
    int faces[FACES];
    int n = read_ints(cards, faces, FACES, "trick");
    if (n < 0) return NULL;
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "an empty trick has no winner");
        return NULL;
    }
    if (!faces_ok(faces, n) || trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "faces 0 to 23 and a trump 0 to 3");
        return NULL;
    }
    int best = 0;
    for (int i = 1; i < n; i++)
        if (takes(faces[best], trump) >> faces[i] & 1) best = i;
    return PyLong_FromLong(best);
}

static PyObject *k_meld_total(PyObject *self, PyObject *args) {
    PyObject *config, *counts_obj;
    int trump;
    if (!PyArg_ParseTuple(args, "OOi", &config, &counts_obj, &trump)) return NULL;
    Config *c = config_acquire(config);
    if (!c) return NULL;
    int counts[FACES];
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "a trump 0 to 3");
        config_release(config, c);
        return NULL;
    }
    if (read_ints(counts_obj, counts, FACES, "counts") < 0) {
        config_release(config, c);
        return NULL;
    }
    uint8_t u[FACES];
    for (int f = 0; f < FACES; f++) u[f] = (uint8_t)(counts[f] < 0 ? 0 : counts[f] > 4 ? 4 : counts[f]);
    int total = meld_total(u, trump, c);
    config_release(config, c);
    return PyLong_FromLong(total);
}

/* ------------------------------------------------------------------ playouts from a trick */

/* Playouts know trick rules alone: two-hand's are its play-out's (the stock is empty), its
   stock, draws and melds are random_hands'. random_deals deals and plays the tricks at
   once, so it has no two-hand: that needs the stock phase first. */
#define TWO_HAND_WHOLE "the kernel plays two-hand as whole hands only (random_hands)"

enum { POLICY_RANDOM = 0, POLICY_GREEDY = 1 };

/* The least valuable face of `mask`: a side card before a trump, nines first. */
static int weakest(uint32_t mask, uint32_t side_mask) {
    uint32_t pool = (mask & side_mask) ? (mask & side_mask) : mask;
    for (int rank = 5; rank >= 0; rank--) {
        uint32_t rank_mask = (1u << rank) | (1u << (6 + rank)) | (1u << (12 + rank)) |
                             (1u << (18 + rank));
        uint32_t found = pool & rank_mask;
        if (found) return lowest(found);
    }
    return -1;
}

typedef struct {
    uint8_t counts[MAX_SEATS][FACES];
    uint32_t masks[MAX_SEATS];
} Deal;

/* Play the tricks out from a position: the trick so far led by `leader`, `taken` per
   side. Four, three or two seats (two-hand's play-out, once the stock is empty); only
   four-hand has partners to give counters to. POLICY_GREEDY is bots/reference/strong.py
   Playout.finish's card sense; POLICY_RANDOM plays uniformly among the legal faces.
   The seats of bit mask `uniform` play uniformly whatever the policy (an evaluator's
   rollout of the random bot beside greedy ones); a uniform seat draws as POLICY_RANDOM
   does, so no bits is the policy alone and every bit is POLICY_RANDOM.
   Returns taken per side. */
static void play_out(const Config *c, Deal *d, const int *trick, int ntrick, int leader,
                     const int *taken_in, int trump, int policy, uint32_t uniform, int first,
                     MT *r, int *won) {
    uint32_t trump_mask = SUIT_MASK[trump];
    uint32_t side_mask = 0xFFFFFFu & ~trump_mask;
    uint32_t side_aces = 0x41041u & side_mask;
    uint32_t side_gifts = (0x82082u | 0x104104u) & side_mask;
    int players = c->players;
    for (int s = 0; s < nsides(c); s++) won[s] = taken_in[s];
    int played = ntrick, pot = 0, led = -1, win = -1, led_high = -1, win_seat = -1;
    for (int i = 0; i < ntrick; i++) {
        int face = trick[i];
        pot += c->points[face];
        if (i == 0) {
            led = face / 6;
            win = led_high = face;
            win_seat = leader;
        } else {
            if (takes(win, trump) >> face & 1) {
                win = face;
                win_seat = (leader + i) % players;
            }
            if (face / 6 == led && face < led_high) led_high = face;
        }
    }
    int seat = (leader + played) % players;
    for (;;) {
        uint32_t hand = d->masks[seat];
        int face;
        if (!hand) return; /* nothing left to play: a position at the hand's end */
        int greedy = policy == POLICY_GREEDY && !(uniform >> seat & 1);
        if (first >= 0) {
            face = first;
            first = -1;
        } else if (greedy && played == 0) {
            uint32_t aces = hand & side_aces;
            if (aces) {
                face = lowest(aces);
            } else {
                int skip = mt_choice(r, popcount(hand));
                uint32_t choice = hand;
                while (skip--) choice &= choice - 1;
                face = lowest(choice);
            }
        } else {
            uint32_t legal = legal_mask(hand, led, win, led_high, trump, c->head, c->if_winning,
                                        c->overtrump);
            if (!greedy) {
                int skip = mt_choice(r, popcount(legal));
                while (skip--) legal &= legal - 1;
                face = lowest(legal);
            } else if (!(legal & (legal - 1))) {
                face = lowest(legal);
            } else if ((win_seat - seat + players) % 2 == 0 && players == 4) {
                uint32_t gifts = legal & side_gifts;
                face = gifts ? lowest(gifts) : weakest(legal, side_mask);
            } else {
                uint32_t beaters = legal & takes(win, trump);
                if (!beaters)
                    face = weakest(legal, side_mask);
                else if (played == players - 1 || (led != trump && (beaters & trump_mask)))
                    face = weakest(beaters, side_mask);
                else
                    face = lowest(beaters);
            }
        }
        if (!--d->counts[seat][face]) d->masks[seat] = hand & ~(1u << face);
        pot += c->points[face];
        if (played == 0) {
            led = face / 6;
            win = led_high = face;
            win_seat = seat;
        } else {
            if (takes(win, trump) >> face & 1) {
                win = face;
                win_seat = seat;
            }
            if (face / 6 == led && face < led_high) led_high = face;
        }
        played++;
        if (played < players) {
            seat = (seat + 1) % players;
            continue;
        }
        int side = side_of(c, win_seat);
        won[side] += pot;
        if (!d->masks[win_seat]) {
            won[side] += c->last_bonus;
            return;
        }
        pot = played = 0;
        led = -1;
        seat = win_seat;
    }
}

PyDoc_STRVAR(playouts_doc,
             "playouts(config, trump, hands, trick, leader, taken, count, policy, rng, first=-1,\n"
             "         uniform=0)\n"
             "-> (rng_state, results)\n\n"
             "count playouts of the tricks from one position, every hand known: hands are\n"
             "the seats' 24 face counts, trick the faces played to the current trick (led by\n"
             "leader), taken the counters per side so far. policy 0 plays uniformly among\n"
             "the legal faces, 1 the card sense of the strong reference bot's playouts; the\n"
             "seat to move plays `first` when it is a face; the seats of bit mask `uniform`\n"
             "play uniformly whatever the policy. results: taken per side at the\n"
             "end (last-trick bonus included), one tuple per playout. rng: a random.Random\n"
             "state (given back advanced) or an int seed of one (rng_state None).");

static PyObject *k_playouts(PyObject *self, PyObject *args) {
    PyObject *config, *hands_obj, *trick_obj, *taken_obj, *rng_obj;
    int trump, leader, policy, first = -1;
    long count, uniform_in = 0;
    if (!PyArg_ParseTuple(args, "OiOOiOliO|il", &config, &trump, &hands_obj, &trick_obj, &leader,
                          &taken_obj, &count, &policy, &rng_obj, &first, &uniform_in))
        return NULL;
    Config *c = config_acquire(config);
    MT *r = PyMem_Malloc(sizeof(MT));
    PyObject *result = NULL, *list = NULL;
    Deal start;
    int trick[MAX_SEATS], taken[MAX_SEATS];
    int ntrick;
    if (!c || !r) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (mt_from_py(rng_obj, r) < 0) goto done;
    if (trump < 0 || trump > 3 || leader < 0 || leader >= c->players || count < 0 ||
        uniform_in < 0 || uniform_in >= 1L << c->players) {
        PyErr_SetString(PyExc_ValueError,
                        "trump 0 to 3, a seat as leader, count >= 0, uniform a mask of seats");
        goto done;
    }
    uint32_t uniform = (uint32_t)uniform_in;
    PyObject *fast = PySequence_Fast(hands_obj, "hands");
    if (!fast) goto done;
    if (PySequence_Fast_GET_SIZE(fast) != c->players) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "one count vector per seat");
        goto done;
    }
    memset(&start, 0, sizeof(start));
    for (int s = 0; s < c->players; s++) {
        int counts[FACES];
        if (read_ints(PySequence_Fast_GET_ITEM(fast, s), counts, FACES, "counts") < 0) {
            Py_DECREF(fast);
            goto done;
        }
        for (int f = 0; f < FACES; f++) {
            start.counts[s][f] = (uint8_t)(counts[f] < 0 ? 0 : counts[f] > 4 ? 4 : counts[f]);
            if (start.counts[s][f]) start.masks[s] |= 1u << f;
        }
    }
    Py_DECREF(fast);
    ntrick = read_ints(trick_obj, trick, MAX_SEATS, "trick");
    if (ntrick < 0 || read_ints(taken_obj, taken, MAX_SEATS, "taken") < 0) goto done;
    if (ntrick >= c->players || !faces_ok(trick, ntrick)) {
        PyErr_SetString(PyExc_ValueError, "a trick of fewer cards than seats, faces 0 to 23");
        goto done;
    }
    if (first >= FACES || (first >= 0 && !start.counts[(leader + ntrick) % c->players][first])) {
        PyErr_SetString(PyExc_ValueError, "first: a face the seat to move holds, or -1");
        goto done;
    }
    list = PyList_New(count);
    if (!list) goto done;
    int sides = nsides(c);
    int *all = PyMem_Malloc(sizeof(int) * (size_t)(count ? count : 1) * MAX_SEATS);
    if (!all) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    for (long i = 0; i < count; i++) {
        Deal d = start;
        play_out(c, &d, trick, ntrick, leader, taken, trump, policy, uniform, first, r,
                 all + i * MAX_SEATS);
    }
    Py_END_ALLOW_THREADS
    for (long i = 0; i < count; i++) PyList_SET_ITEM(list, i, int_tuple(all + i * MAX_SEATS, sides));
    PyMem_Free(all);
    /* Seeded from an int, the generator's state is of no use to the caller. */
    PyObject *state = PyLong_Check(rng_obj) ? Py_NewRef(Py_None) : mt_to_py(r);
    if (state) result = Py_BuildValue("(NO)", state, list);
done:
    Py_XDECREF(list);
    config_release(config, c);
    PyMem_Free(r);
    return result;
}

PyDoc_STRVAR(random_deals_doc,
             "random_deals(config, game_seed, first, count, rng, greedy) -> (rng_state, sums)\n\n"
             "The loop without an auction: hand n dealt from splitmix64_output(game_seed, n)\n"
             "with dealer n % players, a trump drawn uniformly, every seat's meld, the seat\n"
             "left of the dealer leading the first trick, the tricks played uniformly among\n"
             "the legal cards (greedy: by the strong bot's card sense). sums: by side, the\n"
             "meld plus the counters taken, summed over the hands.");

static PyObject *k_random_deals(PyObject *self, PyObject *args) {
    PyObject *config, *rng_obj;
    unsigned long long game_seed;
    long long first, count;
    int greedy;
    if (!PyArg_ParseTuple(args, "OKLLOp", &config, &game_seed, &first, &count, &rng_obj, &greedy))
        return NULL;
    Config *c = config_acquire(config);
    MT *r = PyMem_Malloc(sizeof(MT));
    PyObject *result = NULL;
    if (!c || !r) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (mt_from_py(rng_obj, r) < 0) goto done;
    if (c->players == 2) {
        PyErr_SetString(PyExc_ValueError, TWO_HAND_WHOLE);
        goto done;
    }
    if (first < 0 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "first and count must not be negative");
        goto done;
    }
    long long sums[MAX_SEATS] = {0};
    int sides = nsides(c);
    Py_BEGIN_ALLOW_THREADS
    for (long long n = first; n < first + count; n++) {
        Hand h;
        int dealer = (int)(n % c->players);
        deal_hand(c, splitmix64_output(game_seed, (uint64_t)n), dealer, &h);
        int trump = mt_choice(r, 4), taken[MAX_SEATS] = {0}, won[MAX_SEATS];
        for (int s = 0; s < c->players; s++)
            sums[side_of(c, s)] += meld_total(h.counts[s], trump, c);
        Deal d;
        memcpy(d.counts, h.counts, sizeof(d.counts));
        memcpy(d.masks, h.masks, sizeof(d.masks));
        play_out(c, &d, NULL, 0, (dealer + 1) % c->players, taken, trump,
                 greedy ? POLICY_GREEDY : POLICY_RANDOM, 0, -1, r, won);
        for (int s = 0; s < sides; s++) sums[s] += won[s];
    }
    Py_END_ALLOW_THREADS
    PyObject *state = mt_to_py(r);
    if (state) {
        long long values[MAX_SEATS];
        PyObject *t = PyTuple_New(sides);
        for (int s = 0; s < sides; s++) values[s] = sums[s];
        for (int s = 0; s < sides && t; s++) PyTuple_SET_ITEM(t, s, PyLong_FromLongLong(values[s]));
        result = Py_BuildValue("(NN)", state, t);
    }
done:
    config_release(config, c);
    PyMem_Free(r);
    return result;
}

/* ------------------------------------------------------------------ sampled deals */

/* Hall's condition (bots/reference/strong.py _placeable): for every set of the three
   other seats, the cards only they may take fit in their room. */
static int placeable(const int *waiting, const int *room) {
    for (int group = 1; group < 8; group++) {
        int space = 0, need = 0;
        for (int i = 0; i < 3; i++)
            if (group >> i & 1) space += room[i];
        for (int inner = 1; inner < 8; inner++)
            if ((inner & ~group) == 0) need += waiting[inner];
        if (need > space) return 0;
    }
    return 1;
}

/* Beliefs.sample's dealing: the pool's `n` cards (`cards`, in face order, overwritten)
   shuffled as random.shuffle does, those of a kind other than 7 first (a stable sort),
   each dealt to one of the three `others` (kinds: the bits of those allowed) with room for
   it, chance proportional to room + 1, never leaving the rest unplaceable. `room` is used
   up and `hands` filled in. -1 when no seat may take a card. */
static int deal_unseen(int *cards, int n, const int *kinds, int *room, int hands[][FACES],
                       const int *others, MT *r) {
    for (int i = n - 1; i > 0; i--) {
        int j = (int)mt_below(r, (uint32_t)(i + 1));
        int t = cards[i];
        cards[i] = cards[j];
        cards[j] = t;
    }
    int sorted_cards[FACES * 4], m = 0;
    for (int i = 0; i < n; i++)
        if (kinds[cards[i]] != 7) sorted_cards[m++] = cards[i];
    for (int i = 0; i < n; i++)
        if (kinds[cards[i]] == 7) sorted_cards[m++] = cards[i];
    int waiting[8] = {0};
    for (int i = 0; i < n; i++) waiting[kinds[sorted_cards[i]]]++;
    for (int i = 0; i < n; i++) {
        int face = sorted_cards[i], kind = kinds[face];
        waiting[kind]--;
        int choices[3], weights[3], nchoices = 0, total = 0;
        for (int index = 0; index < 3; index++) {
            if (kind >> index & 1 && room[index]) {
                room[index]--;
                if (kind == 7 || placeable(waiting, room)) {
                    choices[nchoices] = index;
                    weights[nchoices++] = room[index] + 1;
                    total += room[index] + 1;
                }
                room[index]++;
            }
        }
        if (!nchoices) return -1;
        double pick = mt_random(r) * total;
        int chosen = choices[nchoices - 1];
        for (int c = 0; c < nchoices; c++) {
            if (pick < weights[c]) {
                chosen = choices[c];
                break;
            }
            pick -= weights[c];
        }
        room[chosen]--;
        hands[others[chosen]][face]++;
    }
    return 0;
}

PyDoc_STRVAR(sample_deal_doc,
             "sample_deal(kinds, pool, room, hands, others, rng_state) -> (rng_state, hands)\n\n"
             "The strong reference bot's Beliefs.sample with the generator's state: the pool's\n"
             "cards (24 counts) shuffled as random.shuffle does, those of a kind other than 7\n"
             "first, each dealt to one of the three others (kinds: the bits of those allowed)\n"
             "with room for it, chance proportional to room + 1, never leaving the rest\n"
             "unplaceable. hands: the four hands' counts so far (held cards, own hand).");

static PyObject *k_sample_deal(PyObject *self, PyObject *args) {
    PyObject *kinds_obj, *pool_obj, *room_obj, *hands_obj, *others_obj, *rng_obj;
    if (!PyArg_ParseTuple(args, "OOOOOO", &kinds_obj, &pool_obj, &room_obj, &hands_obj,
                          &others_obj, &rng_obj))
        return NULL;
    int kinds[FACES], pool[FACES], room[3], others[3], hands[MAX_SEATS][FACES];
    if (read_ints(kinds_obj, kinds, FACES, "kinds") != FACES ||
        read_ints(pool_obj, pool, FACES, "pool") != FACES ||
        read_ints(room_obj, room, 3, "room") != 3 || read_ints(others_obj, others, 3, "others") != 3) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "24 kinds and pool counts, 3 rooms and others");
        return NULL;
    }
    if (read_hands(hands_obj, hands, 4, "four hands") < 0) return NULL;
    int cards[FACES * 4], n = 0;
    for (int f = 0; f < FACES; f++) {
        if (kinds[f] < 0 || kinds[f] > 7 || pool[f] < 0 || pool[f] > 4) {
            PyErr_SetString(PyExc_ValueError, "kinds 0 to 7, pool counts 0 to 4");
            return NULL;
        }
        for (int k = 0; k < pool[f]; k++) cards[n++] = f;
    }
    for (int i = 0; i < 3; i++)
        if (others[i] < 0 || others[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "others are seats");
            return NULL;
        }
    MT *r = PyMem_Malloc(sizeof(MT));
    if (!r) return PyErr_NoMemory();
    if (mt_from_py(rng_obj, r) < 0) {
        PyMem_Free(r);
        return NULL;
    }
    if (deal_unseen(cards, n, kinds, room, hands, others, r) < 0) {
        PyMem_Free(r);
        PyErr_SetString(PyExc_ValueError, "no seat may take a card: the beliefs contradict");
        return NULL;
    }
    PyObject *state = mt_to_py(r);
    PyMem_Free(r);
    if (!state) return NULL;
    PyObject *out = PyList_New(4);
    if (!out) {
        Py_DECREF(state);
        return NULL;
    }
    for (int s = 0; s < 4; s++) {
        PyObject *list = PyList_New(FACES);
        if (!list) {
            Py_DECREF(out);
            Py_DECREF(state);
            return NULL;
        }
        for (int f = 0; f < FACES; f++) PyList_SET_ITEM(list, f, PyLong_FromLong(hands[s][f]));
        PyList_SET_ITEM(out, s, list);
    }
    return Py_BuildValue("(NN)", state, out);
}

/* ------------------------------------------------------------------ the strong bot */

/* The strong bot's score of a playout (Playout.score): its team's meld and counters less
   the other team's, a declaring team short of the bid set back by it. */
typedef struct {
    int meld[2], bid, declaring, team;
} Score;

static int score_of(const Score *s, const int *won) {
    int totals[2] = {s->meld[0] + won[0], s->meld[1] + won[1]};
    if (totals[s->declaring] < s->bid) totals[s->declaring] = -s->bid;
    return totals[s->team] - totals[1 - s->team];
}

PyDoc_STRVAR(search_doc,
             "search(config, trump, kinds, pool, room, hands, others, trick, leader, taken,\n"
             "       candidates, deals, playouts, rng_state, score) -> (rng_state, totals, counts)\n\n"
             "The strong bot's whole search of one decision (StrongBot.evaluate's loop): deals\n"
             "times, a deal of the unseen cards as sample_deal deals it, then a seed of\n"
             "getrandbits(32), then each candidate (a face the seat to move plays first, -1:\n"
             "none) played out greedily from random.Random(seed), while fewer than `playouts`\n"
             "were played. score: (meld side 0, meld side 1, bid, declaring side, team): each\n"
             "playout counts as Playout.score. totals and counts: per candidate.");

static PyObject *k_search(PyObject *self, PyObject *args) {
    PyObject *config, *kinds_obj, *pool_obj, *room_obj, *hands_obj, *others_obj, *trick_obj;
    PyObject *taken_obj, *cand_obj, *rng_obj, *score_obj;
    int trump, leader;
    long deals, playouts;
    if (!PyArg_ParseTuple(args, "OiOOOOOOiOOllOO", &config, &trump, &kinds_obj, &pool_obj,
                          &room_obj, &hands_obj, &others_obj, &trick_obj, &leader, &taken_obj,
                          &cand_obj, &deals, &playouts, &rng_obj, &score_obj))
        return NULL;
    int kinds[FACES], pool[FACES], room[3], others[3], base[MAX_SEATS][FACES];
    int trick[MAX_SEATS], taken[MAX_SEATS], cands[64], sc[5];
    if (read_ints(kinds_obj, kinds, FACES, "kinds") != FACES ||
        read_ints(pool_obj, pool, FACES, "pool") != FACES ||
        read_ints(room_obj, room, 3, "room") != 3 ||
        read_ints(others_obj, others, 3, "others") != 3 ||
        read_ints(score_obj, sc, 5, "score") != 5) {
        if (!PyErr_Occurred())
            PyErr_SetString(PyExc_ValueError,
                            "24 kinds and pool counts, 3 rooms and others, 5 score terms");
        return NULL;
    }
    int ntrick = read_ints(trick_obj, trick, MAX_SEATS, "trick");
    int ncands = read_ints(cand_obj, cands, 64, "candidates");
    if (ntrick < 0 || ncands < 0 || read_ints(taken_obj, taken, MAX_SEATS, "taken") < 0)
        return NULL;
    if (read_hands(hands_obj, base, 4, "four hands") < 0) return NULL;
    if (trump < 0 || trump > 3 || leader < 0 || leader > 3 || ntrick > 3 || !faces_ok(trick, ntrick) ||
        ncands < 1 || deals < 0 || playouts < 0 || sc[3] < 0 || sc[3] > 1 || sc[4] < 0 || sc[4] > 1) {
        PyErr_SetString(PyExc_ValueError, "a trump, a seat as leader, a trick, candidates, sides");
        return NULL;
    }
    int mover = (leader + ntrick) % 4, n = 0, cards[FACES * 4];
    for (int f = 0; f < FACES; f++) {
        if (kinds[f] < 0 || kinds[f] > 7 || pool[f] < 0 || pool[f] > 4) {
            PyErr_SetString(PyExc_ValueError, "kinds 0 to 7, pool counts 0 to 4");
            return NULL;
        }
        n += pool[f];
    }
    for (int i = 0; i < ncands; i++)
        if (cands[i] >= FACES || (cands[i] >= 0 && !base[mover][cands[i]])) {
            PyErr_SetString(PyExc_ValueError, "candidates: faces the seat to move holds, or -1");
            return NULL;
        }
    for (int i = 0; i < 3; i++)
        if (others[i] < 0 || others[i] > 3) {
            PyErr_SetString(PyExc_ValueError, "others are seats");
            return NULL;
        }
    Config *c = config_acquire(config);
    MT *r = PyMem_Malloc(sizeof(MT) * 2);
    PyObject *result = NULL;
    if (!c || !r) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (c->players != 4) {
        PyErr_SetString(PyExc_ValueError, "the strong bot's search is four-hand");
        goto done;
    }
    if (mt_from_py(rng_obj, r) < 0) goto done;
    Score score = {{sc[0], sc[1]}, sc[2], sc[3], sc[4]};
    long long totals[64] = {0};
    long counts[64] = {0};
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    long played = 0;
    for (long dealt = 0; dealt < deals; dealt++) {
        int hands[MAX_SEATS][FACES], left[3];
        memcpy(hands, base, sizeof(hands));
        memcpy(left, room, sizeof(left));
        for (int f = 0, k = 0; f < FACES; f++)
            for (int copy = 0; copy < pool[f]; copy++) cards[k++] = f;
        if (deal_unseen(cards, n, kinds, left, hands, others, r) < 0) {
            failed = 1;
            break;
        }
        uint64_t seed = mt_next(r);
        Deal start;
        memset(&start, 0, sizeof(start));
        for (int s = 0; s < 4; s++)
            for (int f = 0; f < FACES; f++) {
                start.counts[s][f] = (uint8_t)hands[s][f];
                if (hands[s][f]) start.masks[s] |= 1u << f;
            }
        long now = playouts - played < ncands ? playouts - played : ncands;
        for (long i = 0; i < now; i++) {
            Deal d = start;
            int won[MAX_SEATS];
            mt_seed(r + 1, seed);
            play_out(c, &d, trick, ntrick, leader, taken, trump, POLICY_GREEDY, 0, cands[i], r + 1,
                     won);
            totals[i] += score_of(&score, won);
            counts[i]++;
        }
        if (now > 0) played += now;
    }
    Py_END_ALLOW_THREADS
    if (failed) {
        PyErr_SetString(PyExc_ValueError, "no seat may take a card: the beliefs contradict");
        goto done;
    }
    PyObject *state = mt_to_py(r);
    if (!state) goto done;
    PyObject *t = PyList_New(ncands), *k = PyList_New(ncands);
    if (!t || !k) {
        Py_XDECREF(t);
        Py_XDECREF(k);
        Py_DECREF(state);
        goto done;
    }
    for (int i = 0; i < ncands; i++) {
        PyList_SET_ITEM(t, i, PyLong_FromLongLong(totals[i]));
        PyList_SET_ITEM(k, i, PyLong_FromLong(counts[i]));
    }
    result = Py_BuildValue("(NNN)", state, t, k);
done:
    config_release(config, c);
    PyMem_Free(r);
    return result;
}

/* The greedy bot's estimate of a declaring team's points (bots/reference/greedy.py
   hand_value): meld, the rest of the team's (`partner`), a share of the trick points. */
static double greedy_value(const Config *c, const uint8_t *counts, int trump, double partner,
                           int total) {
    int base = trump * 6, trumps = 0, aces = 0, backed = 0;
    for (int r = 0; r < 6; r++) trumps += counts[base + r];
    for (int s = 0; s < 4; s++) {
        if (s == trump) continue;
        aces += counts[s * 6];
        backed += min2(counts[s * 6], counts[s * 6 + 1]);
    }
    double share = (12.0 / c->hand_size) *
                   (0.26 + 0.02 * c->pass_count + 0.059 * trumps + 0.045 * aces +
                    0.055 * counts[base] + 0.01 * backed);
    share = share < 0.05 ? 0.05 : share > 0.95 ? 0.95 : share;
    return meld_total(counts, trump, c) + partner + share * total;
}

/* The trump the greedy bot names with this hand (the best value, the lowest suit on a
   tie), and that value in `value`; -1 when the rules leave no suit. */
static int greedy_trump(const Config *c, const uint8_t *counts, double partner, int total,
                        double *value) {
    int best = -1;
    for (int s = 0; s < 4; s++) {
        if (c->trump_needs_marriage && !(counts[s * 6 + 2] && counts[s * 6 + 3])) continue;
        double v = greedy_value(c, counts, s, partner, total);
        if (best < 0 || v > *value) {
            best = s;
            *value = v;
        }
    }
    return best;
}

/* The passing, by rules of thumb: the giver sends its trumps and aces, the cards its meld
   needs last; the declarer returns what neither melds nor takes tricks, the shortest side
   suit first (voids let it trump). */
static void pass_cards(const Config *c, Deal *d, int giver, int receiver, int trump, int back) {
    int needed[FACES];
    for (int k = 0; k < c->pass_count; k++) {
        uint8_t *hand = d->counts[giver];
        meld_cards(hand, trump, c, needed);
        int best = -1;
        double best_key = 0;
        for (int f = 0; f < FACES; f++) {
            if (!hand[f]) continue;
            int suit = f / 6, rank = f % 6, in_meld = hand[f] <= needed[f];
            double key;
            if (!back) {
                double worth = suit == trump ? 0.9 + (rank == 0 ? 0.6 : rank <= 3 ? 0.2 : 0.0)
                                             : (rank == 0 ? 0.7 : rank == 1 ? 0.2 : 0.0);
                key = worth - 2.0 * in_meld;
            } else {
                int length = 0;
                for (int r = 0; r < 6; r++) length += hand[suit * 6 + r];
                key = -(8.0 * (suit == trump) + 4.0 * in_meld + 2.0 * (rank == 0) +
                        0.1 * length + 0.01 * (5 - rank));
            }
            if (best < 0 || key > best_key) {
                best = f;
                best_key = key;
            }
        }
        if (best < 0) return;
        if (!--d->counts[giver][best]) d->masks[giver] &= ~(1u << best);
        if (!d->counts[receiver][best]++) d->masks[receiver] |= 1u << best;
    }
}

PyDoc_STRVAR(declare_doc,
             "declare(config, hand, seat, declarer, trump, deals, seed, partner, total)\n"
             "-> [(declaring side's points, the other side's, declarer, its greedy value)]\n\n"
             "Whole hands of four-hand pinochle from the auction's end, as `seat` (holding\n"
             "`hand`, 24 counts) sees it: the other 36 cards dealt at random (deal n from\n"
             "random.Random(seed)), `declarer` (a seat; -1: whichever opponent of `seat` the\n"
             "greedy bot values more) naming `trump` (-1: the greedy bot's trump), the\n"
             "passing by rules of thumb, every seat's meld, the tricks by the strong bot's\n"
             "playout card sense from the declarer's lead (draws from random.Random(seed+1)).\n"
             "partner and total: the greedy value's rest-of-team meld and trick points.\n"
             "The same seed deals the same hands whatever the declarer or trump.");

static PyObject *k_declare(PyObject *self, PyObject *args) {
    PyObject *config, *hand_obj;
    int seat, declarer, trump, total;
    long deals;
    unsigned long long seed;
    double partner;
    if (!PyArg_ParseTuple(args, "OOiiilKdi", &config, &hand_obj, &seat, &declarer, &trump, &deals,
                          &seed, &partner, &total))
        return NULL;
    int own[FACES];
    if (read_ints(hand_obj, own, FACES, "hand") != FACES) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "24 counts");
        return NULL;
    }
    if (seat < 0 || seat > 3 || declarer < -1 || declarer > 3 || trump < -1 || trump > 3 ||
        deals < 0) {
        PyErr_SetString(PyExc_ValueError, "seats, a trump or -1, deals >= 0");
        return NULL;
    }
    Config *c = config_acquire(config);
    MT *r = PyMem_Malloc(sizeof(MT) * 2);
    int *out = PyMem_Malloc(sizeof(int) * 3 * (size_t)(deals ? deals : 1));
    double *values = PyMem_Malloc(sizeof(double) * (size_t)(deals ? deals : 1));
    PyObject *result = NULL;
    if (!c || !r || !out || !values) {
        if (!PyErr_Occurred()) PyErr_NoMemory();
        goto done;
    }
    if (c->players != 4 || c->double_deck) {
        PyErr_SetString(PyExc_ValueError, "whole hands from the auction: single-deck four-hand");
        goto done;
    }
    uint8_t pack[96];
    int npack = pack_of(c->double_deck, pack), rest[96], nrest = 0, held[FACES];
    memcpy(held, own, sizeof(held));
    for (int i = 0; i < npack; i++) {
        if (held[pack[i]] > 0)
            held[pack[i]]--;
        else
            rest[nrest++] = pack[i];
    }
    if (nrest != 3 * c->hand_size) {
        PyErr_SetString(PyExc_ValueError, "hand: one seat's cards of the pack");
        goto done;
    }
    Py_BEGIN_ALLOW_THREADS
    mt_seed(r, seed);
    mt_seed(r + 1, seed + 1);
    for (long i = 0; i < deals; i++) {
        int cards[96];
        memcpy(cards, rest, sizeof(int) * (size_t)nrest);
        for (int k = nrest - 1; k > 0; k--) {
            int j = (int)mt_below(r, (uint32_t)(k + 1));
            int t = cards[k];
            cards[k] = cards[j];
            cards[j] = t;
        }
        Deal d;
        memset(&d, 0, sizeof(d));
        for (int f = 0; f < FACES; f++) {
            d.counts[seat][f] = (uint8_t)own[f];
            if (own[f]) d.masks[seat] |= 1u << f;
        }
        for (int k = 0; k < nrest; k++) {
            int s = (seat + 1 + k / c->hand_size) % 4, f = cards[k];
            d.counts[s][f]++;
            d.masks[s] |= 1u << f;
        }
        int who = declarer;
        double value = 0, other = 0;
        if (who < 0) {
            int a = (seat + 1) % 4, b = (seat + 3) % 4;
            greedy_trump(c, d.counts[a], partner, total, &value);
            greedy_trump(c, d.counts[b], partner, total, &other);
            who = other > value ? b : a;
        }
        int named = greedy_trump(c, d.counts[who], partner, total, &value);
        if (trump >= 0) {
            named = trump;
            value = greedy_value(c, d.counts[who], trump, partner, total);
        }
        if (named < 0) named = 0;
        int mate = (who + 2) % 4;
        if (c->pass_count) {
            pass_cards(c, &d, mate, who, named, 0);
            pass_cards(c, &d, who, mate, named, 1);
        }
        int meld[2] = {0, 0}, none[MAX_SEATS] = {0}, won[MAX_SEATS];
        for (int s = 0; s < 4; s++) meld[s % 2] += meld_total(d.counts[s], named, c);
        play_out(c, &d, NULL, 0, who, none, named, POLICY_GREEDY, 0, -1, r + 1, won);
        out[3 * i] = meld[who % 2] + won[who % 2];
        out[3 * i + 1] = meld[1 - who % 2] + won[1 - who % 2];
        out[3 * i + 2] = who;
        values[i] = value;
    }
    Py_END_ALLOW_THREADS
    result = PyList_New(deals);
    if (!result) goto done;
    for (long i = 0; i < deals; i++) {
        PyObject *row = Py_BuildValue("(iiid)", out[3 * i], out[3 * i + 1], out[3 * i + 2],
                                      values[i]);
        if (!row) {
            Py_CLEAR(result);
            goto done;
        }
        PyList_SET_ITEM(result, i, row);
    }
done:
    config_release(config, c);
    PyMem_Free(r);
    PyMem_Free(out);
    PyMem_Free(values);
    return result;
}

static PyObject *k_mt_seed(PyObject *self, PyObject *arg) {
    MT r;
    if (mt_from_py(arg, &r) < 0) return NULL;
    return mt_to_py(&r);
}

/* ================================================================== Pinnacolo

   Whole random hands of Pinnacolo (RULES.md section 8), card for card the hands
   engine/pinnacolo/state.py PinnacoloHand.play_randomly plays with the same generator:
   - a face is suit * 13 + rank (engine/pinnacolo/cards.py), 52 the joker; a hand is 53
     face counts; the pack is two packs without the red twos, and four jokers, shuffled
     by splitmix64-fy-v1 and dealt in blocks from the seat left of the dealer, one card
     to the pile, the rest the stock drawn in pack order (new_hand);
   - the legal actions are listed in _enumerate's order, each meld and addition as
     engine/pinnacolo/melds.py meld_options and add_options yield them (duplicates kept),
     a take checked by _take_ok (can_lay_natural, then additions), a replacement by
     _check_replace, so that int(random() * n) picks the same action;
   - melds on the table are build_meld's and extend_meld's (a tris by suit, a scala
     along the ladder A 3 4 ... K A from its low position, the seat that laid its wild,
     the sesta's anchor), scored by TableMeld.points and PinnacoloHand._score.
   One wild a meld (wilds_per_meld 1, every preset's): engine/kernel.py supports() sends
   other rules to the pure engine. */

#define PN_FACES 53
#define PN_JOKER 52
#define PN_PACK 104
#define PN_MELDS 40
#define PN_NONE 255

enum { PN_TRIS, PN_WILD_TRIS, PN_SCALA };
enum { PN_DRAW, PN_TAKE, PN_MELD, PN_ADD, PN_REPLACE, PN_DISCARD };
enum { PN_PH_DRAW, PN_PH_PLAY, PN_PH_OVER };
enum { PN_CLOSED = 0, PN_STOCK_OUT = 1 };

static const int PN_RANK_AT[13] = {0, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 0};

static inline int pn_wild(int f) { return f == PN_JOKER || f % 13 == 1; }
static inline int pn_face(int suit, int rank) { return suit * 13 + rank; }
static inline int pn_value(int f) {
    if (f == PN_JOKER) return 25;
    int r = f % 13;
    if (r == 1) return 20;
    if (r == 0) return 15;
    return r <= 5 ? 5 : 10;
}

typedef struct {
    int players, pairs, hand_size, taken_always, wilds_per_meld, replaced_wild_melded;
    int last_card_ends, closing_bonus, one_go_bonus, double_hand, no_meld_points;
} PnConfig;

/* A meld on the table: cards as (face, stands for), PN_NONE for the wilds of three
   pinelle or three jokers; `wild` the index of its wild (-1: none), `layer` the seat
   that laid it; `sesta_at` the ladder position of the sesta's anchor (-1: no sesta). */
typedef struct {
    uint8_t kind, owner, n, low;
    int8_t wild, layer, sesta_at, rank, suit;
    uint8_t face[13], stands[13];
} PnMeld;

/* A legal action: a meld's or addition's cards as meld_options / add_options yield them;
   `arg` the depth of a take, the meld of an addition or replacement, the discarded
   card, or a new scala's low position. */
typedef struct {
    uint8_t type, kind, arg, n;
    uint8_t face[13], stands[13];
} PnAction;

typedef struct {
    uint8_t counts[MAX_SEATS][PN_FACES];
    int sizes[MAX_SEATS], laid[MAX_SEATS];
    uint8_t pile[PN_PACK], stock[PN_PACK];
    int npile, nstock, next;
    PnMeld melds[PN_MELDS];
    int nmelds;
    int phase, turn, pending, opened, outcome, closer, actions;
} PnHand;

/* Where the enumerations put what they find: a list of actions (holding `face` when it
   is a face), or only whether one holds `face` (`find`). */
typedef struct {
    int find, face, found, failed;
    int type, kind, arg;
    PnAction *items;
    int n, cap;
} PnSink;

static int pn_push(PnSink *s, PnAction **out) {
    if (s->n == s->cap) {
        int cap = s->cap ? 2 * s->cap : 256;
        PnAction *items = PyMem_RawRealloc(s->items, (size_t)cap * sizeof(PnAction));
        if (!items) {
            s->failed = 1;
            return -1;
        }
        s->items = items;
        s->cap = cap;
    }
    *out = &s->items[s->n++];
    return 0;
}

/* One option found; nonzero stops the enumeration. */
static int pn_emit(PnSink *s, const uint8_t *face, const uint8_t *stands, int n, int arg) {
    if (s->face >= 0) {
        int holds = 0;
        for (int i = 0; i < n; i++)
            if (face[i] == s->face) {
                holds = 1;
                break;
            }
        if (!holds) return 0;
    }
    if (s->find) {
        s->found = 1;
        return 1;
    }
    PnAction *a;
    if (pn_push(s, &a) < 0) return 1;
    a->type = (uint8_t)s->type;
    a->kind = (uint8_t)s->kind;
    a->arg = (uint8_t)(s->type == PN_ADD ? s->arg : arg);
    a->n = (uint8_t)n;
    memcpy(a->face, face, (size_t)n);
    memcpy(a->stands, stands, (size_t)n);
    return 0;
}

static int pn_simple(PnSink *s, int type, int arg) {
    PnAction *a;
    if (pn_push(s, &a) < 0) return -1;
    a->type = (uint8_t)type;
    a->arg = (uint8_t)arg;
    a->n = 0;
    return 0;
}

/* melds.py meld_options with at most one wild: tris and pokers by rank, three pinelle or
   three jokers, then scale by suit, low position, high position, wild places, wilds. */
static int pn_meld_options(const uint8_t *c, int limit, int focus, PnSink *s) {
    if (limit < 3) return 0;
    int wilds[3], nw = 0;
    if (c[1]) wilds[nw++] = 1;
    if (c[40]) wilds[nw++] = 40;
    if (c[PN_JOKER]) wilds[nw++] = PN_JOKER;
    int most = nw > 0;
    int frank = (focus >= 0 && focus < PN_JOKER && !pn_wild(focus)) ? focus % 13 : -1;
    int fsuit = frank >= 0 ? focus / 13 : -1;
    uint8_t f[13], st[13];
    s->kind = PN_TRIS;
    for (int ri = 0; ri < 12; ri++) {
        int rank = ri ? ri + 1 : 0;
        if (frank >= 0 && rank != frank) continue;
        int suits[4], ns = 0;
        for (int su = 0; su < 4; su++)
            if (c[pn_face(su, rank)]) suits[ns++] = su;
        for (int a = 0; a < ns; a++)
            for (int b = a + 1; b < ns; b++)
                for (int d = b + 1; d < ns; d++) {
                    f[0] = st[0] = (uint8_t)pn_face(suits[a], rank);
                    f[1] = st[1] = (uint8_t)pn_face(suits[b], rank);
                    f[2] = st[2] = (uint8_t)pn_face(suits[d], rank);
                    if (pn_emit(s, f, st, 3, PN_NONE)) return 1;
                }
        if (ns == 4 && limit >= 4) {
            for (int k = 0; k < 4; k++) f[k] = st[k] = (uint8_t)pn_face(k, rank);
            if (pn_emit(s, f, st, 4, PN_NONE)) return 1;
        }
        for (int w = 0; w < nw; w++)
            for (int a = 0; a < ns; a++)
                for (int b = a + 1; b < ns; b++)
                    for (int absent = 0; absent < 4; absent++) {
                        if (absent == suits[a] || absent == suits[b]) continue;
                        f[0] = st[0] = (uint8_t)pn_face(suits[a], rank);
                        f[1] = st[1] = (uint8_t)pn_face(suits[b], rank);
                        f[2] = (uint8_t)wilds[w];
                        st[2] = (uint8_t)pn_face(absent, rank);
                        if (pn_emit(s, f, st, 3, PN_NONE)) return 1;
                    }
    }
    s->kind = PN_WILD_TRIS;
    if (frank < 0) {
        st[0] = st[1] = st[2] = PN_NONE;
        if (c[1] >= 2 && c[40] >= 1) {
            f[0] = 1, f[1] = 1, f[2] = 40;
            if (pn_emit(s, f, st, 3, PN_NONE)) return 1;
        }
        if (c[1] >= 1 && c[40] >= 2) {
            f[0] = 1, f[1] = 40, f[2] = 40;
            if (pn_emit(s, f, st, 3, PN_NONE)) return 1;
        }
        if (c[PN_JOKER] >= 3) {
            f[0] = f[1] = f[2] = PN_JOKER;
            if (pn_emit(s, f, st, 3, PN_NONE)) return 1;
        }
    }
    s->kind = PN_SCALA;
    int last_low = 10;
    if (frank > 0) last_low = frank - 1 < 10 ? frank - 1 : 10;
    for (int suit = 0; suit < 4; suit++) {
        if (fsuit >= 0 && suit != fsuit) continue;
        int held[13];
        for (int p = 0; p < 13; p++) held[p] = c[pn_face(suit, PN_RANK_AT[p])] > 0;
        int two_aces = c[pn_face(suit, 0)] >= 2;
        for (int low = 0; low <= last_low; low++) {
            int missing = -1, nmissing = 0;
            for (int high = low; high < 13; high++) {
                if (high - low + 1 > limit) break;
                if (!held[high] || (high == 12 && low == 0 && !two_aces)) {
                    if (nmissing == most) break;
                    missing = high;
                    nmissing++;
                }
                if (high - low < 2) continue;
                int len = high - low + 1;
                for (int p = low; p <= high; p++)
                    f[p - low] = st[p - low] = (uint8_t)pn_face(suit, PN_RANK_AT[p]);
                for (int extra = 0; extra <= most - nmissing; extra++) {
                    if (2 * (nmissing + extra) >= len) break;
                    if (extra == 0 && nmissing == 0) {
                        if (pn_emit(s, f, st, len, (uint8_t)low)) return 1;
                    } else if (extra == 0) {
                        for (int w = 0; w < nw; w++) {
                            f[missing - low] = (uint8_t)wilds[w];
                            if (pn_emit(s, f, st, len, (uint8_t)low)) return 1;
                        }
                        f[missing - low] = st[missing - low];
                    } else {
                        for (int p = 0; p < len; p++) {
                            for (int w = 0; w < nw; w++) {
                                f[p] = (uint8_t)wilds[w];
                                if (pn_emit(s, f, st, len, (uint8_t)low)) return 1;
                            }
                            f[p] = st[p];
                        }
                    }
                }
            }
        }
    }
    return 0;
}

/* melds.py can_lay_natural. */
static int pn_can_lay_natural(int face, const uint8_t *c, int limit) {
    if (limit < 3) return 0;
    int wild = c[1] || c[40] || c[PN_JOKER];
    int rank = face % 13, suit = face / 13, suits = 0;
    for (int other = 0; other < 4; other++)
        if (c[pn_face(other, rank)]) suits++;
    if (suits >= 3 || (suits >= 2 && wild)) return 1;
    int places[2] = {rank - 1, -1};
    if (rank == 0) places[0] = 0, places[1] = 12;
    for (int k = 0; k < 2 && places[k] >= 0; k++) {
        int place = places[k];
        int from = place - 2 > 0 ? place - 2 : 0, to = place < 10 ? place : 10;
        for (int start = from; start <= to; start++) {
            int missing = 0;
            for (int p = start; p < start + 3; p++)
                if (!c[pn_face(suit, PN_RANK_AT[p])]) missing++;
            if (missing == 0 || (missing == 1 && wild)) return 1;
        }
    }
    return 0;
}

/* melds.py add_options with at most one wild in the meld. */
static int pn_add_options(const PnMeld *m, const uint8_t *c, int limit, PnSink *s) {
    if (limit < 1 || m->kind == PN_WILD_TRIS) return 0;
    uint8_t f[13], st[13];
    if (m->kind == PN_TRIS) {
        if (m->n == 3 && m->wild < 0) {
            int taken = 0;
            for (int i = 0; i < 3; i++) taken |= 1 << (m->stands[i] / 13);
            for (int suit = 0; suit < 4; suit++) {
                int face = pn_face(suit, m->rank);
                if (!(taken >> suit & 1) && c[face]) {
                    f[0] = st[0] = (uint8_t)face;
                    if (pn_emit(s, f, st, 1, PN_NONE)) return 1;
                }
            }
        }
        return 0;
    }
    int on_table = m->wild >= 0;
    int wilds[3], nw = 0;
    if (!on_table) {
        if (c[1]) wilds[nw++] = 1;
        if (c[40]) wilds[nw++] = 40;
        if (c[PN_JOKER]) wilds[nw++] = PN_JOKER;
    }
    for (int dir = 0; dir < 2; dir++) {
        int step = dir ? 1 : -1;
        int start = dir ? m->low + m->n : m->low - 1, stop = dir ? 13 : -1;
        /* The partial additions: where each has its wild (-1: none) and which. */
        int pw[48], pf[48], np = 1, len = 0;
        pw[0] = -1, pf[0] = -1;
        for (int pos = start; pos != stop; pos += step) {
            if (len >= limit) break;
            int face = pn_face(m->suit, PN_RANK_AT[pos]);
            int gw[48], gf[48], ng = 0;
            for (int i = 0; i < np; i++) {
                if (c[face]) gw[ng] = pw[i], gf[ng] = pf[i], ng++;
                if (nw && pw[i] < 0)
                    for (int w = 0; w < nw; w++) gw[ng] = len, gf[ng] = wilds[w], ng++;
            }
            if (!ng) break;
            f[len] = st[len] = (uint8_t)face;
            len++;
            int total = m->n + len;
            for (int g = 0; g < ng; g++) {
                if (2 * (on_table + (gw[g] >= 0)) >= total) continue;
                if (gw[g] >= 0) f[gw[g]] = (uint8_t)gf[g];
                int stop_now = pn_emit(s, f, st, len, PN_NONE);
                if (gw[g] >= 0) f[gw[g]] = st[gw[g]];
                if (stop_now) return 1;
            }
            memcpy(pw, gw, sizeof(int) * (size_t)ng);
            memcpy(pf, gf, sizeof(int) * (size_t)ng);
            np = ng;
        }
    }
    return 0;
}

static inline int pn_side(const PnConfig *cf, int seat) { return cf->pairs ? seat % 2 : seat; }

static int pn_may_add_to(const PnConfig *cf, const PnHand *h, int seat, const PnMeld *m) {
    if (m->owner == seat) return 1;
    return cf->pairs && m->owner == (seat + 2) % 4 && h->laid[seat];
}

/* state.py _may_hold. */
static int pn_may_hold(const PnMeld *m, int face) {
    if (m->kind == PN_TRIS) return m->rank == face % 13;
    return m->kind == PN_SCALA && m->suit == face / 13;
}

/* state.py _can_meld: a meld or addition holding `face` from counts `c`. */
static int pn_can_meld(const PnConfig *cf, const PnHand *h, int seat, const uint8_t *c, int size,
                       int face) {
    int limit = size - 1;
    int focus = pn_wild(face) ? -1 : face;
    PnSink s = {0};
    s.find = 1;
    s.face = face;
    if (focus >= 0) {
        if (pn_can_lay_natural(face, c, limit)) return 1;
    } else {
        pn_meld_options(c, limit, -1, &s);
        if (s.found) return 1;
    }
    for (int i = 0; i < h->nmelds; i++) {
        const PnMeld *m = &h->melds[i];
        if (focus >= 0 && !pn_may_hold(m, focus)) continue;
        if (pn_may_add_to(cf, h, seat, m)) {
            pn_add_options(m, c, limit, &s);
            if (s.found) return 1;
        }
    }
    return 0;
}

/* state.py _check_replace (and _replace_ok) for a wild on the table and a natural held. */
static int pn_replace_ok(const PnConfig *cf, PnHand *h, int seat, int index) {
    PnMeld *m = &h->melds[index];
    int position = m->wild, card = m->stands[position], wild = m->face[position];
    if ((wild == 1 || wild == 40) && pn_side(cf, m->layer) != pn_side(cf, seat)) return 0;
    if (!cf->replaced_wild_melded) return 1;
    uint8_t c[PN_FACES];
    memcpy(c, h->counts[seat], PN_FACES);
    c[card]--;
    c[wild]++;
    m->face[position] = (uint8_t)card;
    m->wild = -1;
    int ok = pn_can_meld(cf, h, seat, c, h->sizes[seat], wild);
    m->face[position] = (uint8_t)wild;
    m->wild = (int8_t)position;
    return ok;
}

/* state.py _enumerate. */
static int pn_enumerate(const PnConfig *cf, PnHand *h, PnSink *s) {
    int seat = h->turn;
    s->n = 0;
    s->find = 0;
    s->failed = 0;
    if (h->phase == PN_PH_DRAW) {
        if (pn_simple(s, PN_DRAW, 0) < 0) return -1;
        uint8_t c[PN_FACES];
        memcpy(c, h->counts[seat], PN_FACES);
        for (int d = 1; d <= h->npile; d++) {
            int deep = h->pile[h->npile - d];
            c[deep]++;
            int ok = (!cf->taken_always && d == 1) ||
                     pn_can_meld(cf, h, seat, c, h->sizes[seat] + d, deep);
            if (ok && pn_simple(s, PN_TAKE, d) < 0) return -1;
        }
        return 0;
    }
    const uint8_t *c = h->counts[seat];
    int limit = h->sizes[seat] - 1, pending = h->pending;
    s->face = pending;
    s->type = PN_MELD;
    pn_meld_options(c, limit, pending >= 0 && !pn_wild(pending) ? pending : -1, s);
    if (s->failed) return -1;
    s->type = PN_ADD;
    s->kind = 0;
    for (int i = 0; i < h->nmelds; i++) {
        if (!pn_may_add_to(cf, h, seat, &h->melds[i])) continue;
        s->arg = i;
        pn_add_options(&h->melds[i], c, limit, s);
        if (s->failed) return -1;
    }
    if (pending < 0) {
        if (h->laid[seat])
            for (int i = 0; i < h->nmelds; i++) {
                const PnMeld *m = &h->melds[i];
                if (m->kind == PN_WILD_TRIS || m->wild < 0 || !c[m->stands[m->wild]]) continue;
                if (pn_replace_ok(cf, h, seat, i) && pn_simple(s, PN_REPLACE, i) < 0) return -1;
            }
        for (int f = 0; f < PN_FACES; f++)
            if (c[f] && pn_simple(s, PN_DISCARD, f) < 0) return -1;
    }
    return 0;
}

static void pn_find_wild(PnMeld *m) {
    m->wild = -1;
    for (int i = 0; i < m->n; i++)
        if (m->stands[i] != PN_NONE && m->face[i] != m->stands[i]) m->wild = (int8_t)i;
}

/* TableMeld.update_sesta. */
static void pn_update_sesta(PnMeld *m) {
    if (m->sesta_at < 0 && m->kind == PN_SCALA && m->n >= 6 && m->wild < 0)
        m->sesta_at = (int8_t)m->low;
}

/* A tris's cards by suit of the card each stands for (build_meld, extend_meld). */
static void pn_sort_tris(PnMeld *m) {
    for (int i = 1; i < m->n; i++)
        for (int j = i; j > 0 && m->stands[j - 1] / 13 > m->stands[j] / 13; j--) {
            uint8_t t = m->face[j];
            m->face[j] = m->face[j - 1], m->face[j - 1] = t;
            t = m->stands[j];
            m->stands[j] = m->stands[j - 1], m->stands[j - 1] = t;
        }
}

/* build_meld of an option meld_options gave. */
static void pn_build(PnMeld *m, const PnAction *a, int seat) {
    memset(m, 0, sizeof(*m));
    m->kind = a->kind;
    m->owner = (uint8_t)seat;
    m->n = a->n;
    m->sesta_at = -1;
    m->layer = (int8_t)seat;
    memcpy(m->face, a->face, a->n);
    memcpy(m->stands, a->stands, a->n);
    m->rank = m->suit = -1;
    if (a->kind == PN_WILD_TRIS) {
        m->wild = -1;
        return;
    }
    if (a->kind == PN_TRIS) pn_sort_tris(m);
    m->low = a->kind == PN_SCALA ? a->arg : 0;
    if (a->kind == PN_SCALA && m->low == 1 && m->n == 12) {
        /* 3 to K and an ace: ladder_positions puts a lone ace low when it can. */
        uint8_t face = m->face[11], stands = m->stands[11];
        memmove(m->face + 1, m->face, 11);
        memmove(m->stands + 1, m->stands, 11);
        m->face[0] = face, m->stands[0] = stands;
        m->low = 0;
    }
    m->rank = (int8_t)(m->stands[0] % 13);
    m->suit = (int8_t)(m->stands[0] / 13);
    pn_find_wild(m);
    pn_update_sesta(m);
}

/* extend_meld of an option add_options gave, added by `seat`. */
static void pn_extend(PnMeld *m, const PnAction *a, int seat) {
    int n = a->n;
    for (int k = 0; k < n; k++)
        if (a->face[k] != a->stands[k]) m->layer = (int8_t)seat;
    if (m->kind == PN_TRIS) {
        for (int k = 0; k < n; k++) {
            m->face[m->n] = a->face[k];
            m->stands[m->n++] = a->stands[k];
        }
        pn_sort_tris(m);
        pn_find_wild(m);
        return;
    }
    int fixed[13], nf = 0, aces = 0;
    for (int k = 0; k < n; k++) {
        int r = a->stands[k] % 13;
        if (r == 0)
            aces++;
        else
            fixed[nf++] = r - 1;
    }
    for (int i = 1; i < nf; i++)
        for (int j = i; j > 0 && fixed[j - 1] > fixed[j]; j--) {
            int t = fixed[j];
            fixed[j] = fixed[j - 1], fixed[j - 1] = t;
        }
    int low = m->low, high = m->low + m->n - 1;
    int tries[2] = {-1, -1}, ntries = 1;
    if (aces == 1) tries[0] = 0, tries[1] = 12, ntries = 2;
    for (int t = 0; t < ntries; t++) {
        int positions[14], np = 0, ace = tries[t];
        if (ace == 0) positions[np++] = 0;
        for (int i = 0; i < nf; i++) positions[np++] = fixed[i];
        if (ace == 12) positions[np++] = 12;
        int contiguous = 1;
        for (int i = 1; i < np; i++)
            if (positions[i] != positions[0] + i) contiguous = 0;
        if (!contiguous || !(positions[np - 1] == low - 1 || positions[0] == high + 1)) continue;
        int at_low = positions[np - 1] == low - 1;
        /* The added cards along the ladder from positions[0]. */
        uint8_t af[13], as[13];
        for (int k = 0; k < n; k++) {
            int r = a->stands[k] % 13;
            int where = r == 0 ? ace : r - 1;
            af[where - positions[0]] = a->face[k];
            as[where - positions[0]] = a->stands[k];
        }
        if (at_low) {
            memmove(m->face + n, m->face, m->n);
            memmove(m->stands + n, m->stands, m->n);
            memcpy(m->face, af, (size_t)n);
            memcpy(m->stands, as, (size_t)n);
            m->low = (uint8_t)positions[0];
        } else {
            memcpy(m->face + m->n, af, (size_t)n);
            memcpy(m->stands + m->n, as, (size_t)n);
        }
        m->n = (uint8_t)(m->n + n);
        pn_find_wild(m);
        pn_update_sesta(m);
        return;
    }
}

/* TableMeld.points. */
static int pn_points(const PnMeld *m) {
    int total = 0;
    for (int i = 0; i < m->n; i++) total += pn_value(m->face[i]);
    if (m->kind == PN_TRIS && m->n == 4 && m->wild < 0) return 2 * total;
    if (m->kind == PN_SCALA && m->sesta_at >= 0) {
        int anchor = m->sesta_at - m->low, start = anchor, stop = anchor;
        while (start > 0 && m->face[start - 1] == m->stands[start - 1]) start--;
        while (stop + 1 < m->n && m->face[stop + 1] == m->stands[stop + 1]) stop++;
        for (int i = start; i <= stop; i++) total += pn_value(m->face[i]);
    }
    return total;
}

static void pn_start_play(PnHand *h, int seat) {
    h->phase = PN_PH_PLAY;
    h->opened = h->laid[seat];
    h->pending = -1;
}

/* state.py _do. */
static void pn_do(const PnConfig *cf, PnHand *h, const PnAction *a) {
    int seat = h->turn;
    uint8_t *c = h->counts[seat];
    h->actions++;
    switch (a->type) {
    case PN_MELD:
    case PN_ADD: {
        int held = 0;
        for (int k = 0; k < a->n; k++) {
            c[a->face[k]]--;
            if (a->face[k] == h->pending) held = 1;
        }
        h->sizes[seat] -= a->n;
        if (a->type == PN_MELD) {
            pn_build(&h->melds[h->nmelds++], a, seat);
            h->laid[seat] = 1;
        } else {
            pn_extend(&h->melds[a->arg], a, seat);
        }
        if (held) h->pending = -1;
        break;
    }
    case PN_DISCARD:
        c[a->arg]--;
        h->sizes[seat]--;
        h->pile[h->npile++] = a->arg;
        if (!h->sizes[seat]) {
            h->closer = seat;
            h->outcome = PN_CLOSED;
            h->phase = PN_PH_OVER;
        } else if (h->next == h->nstock && cf->last_card_ends) {
            h->outcome = PN_STOCK_OUT;
            h->phase = PN_PH_OVER;
        } else {
            h->turn = (seat + 1) % cf->players;
            h->phase = PN_PH_DRAW;
        }
        break;
    case PN_DRAW:
        if (h->next == h->nstock) {
            h->outcome = PN_STOCK_OUT;
            h->phase = PN_PH_OVER;
        } else {
            c[h->stock[h->next++]]++;
            h->sizes[seat]++;
            pn_start_play(h, seat);
        }
        break;
    case PN_TAKE: {
        int d = a->arg, deepest = h->pile[h->npile - d];
        for (int i = h->npile - d; i < h->npile; i++) c[h->pile[i]]++;
        h->npile -= d;
        h->sizes[seat] += d;
        pn_start_play(h, seat);
        if (cf->taken_always || d > 1) h->pending = deepest;
        break;
    }
    default: { /* PN_REPLACE */
        PnMeld *m = &h->melds[a->arg];
        int position = m->wild, card = m->stands[position], wild = m->face[position];
        m->face[position] = (uint8_t)card;
        m->wild = -1;
        pn_update_sesta(m);
        c[card]--;
        c[wild]++;
        if (cf->replaced_wild_melded) h->pending = wild;
        break;
    }
    }
}

/* new_hand: the pack shuffled, blocks of hand_size from the dealer's left, the pile. */
static void pn_deal(const PnConfig *cf, uint64_t seed, int dealer, PnHand *h) {
    uint8_t pack[PN_PACK];
    int n = 0;
    for (int f = 0; f < PN_FACES; f++) {
        int copies = f == PN_JOKER ? 4 : (f == 14 || f == 27) ? 0 : 2;
        for (int k = 0; k < copies; k++) pack[n++] = (uint8_t)f;
    }
    shuffle_pack(pack, n, seed);
    memset(h, 0, sizeof(*h));
    for (int b = 0; b < cf->players; b++) {
        int seat = (dealer + 1 + b) % cf->players;
        for (int i = b * cf->hand_size; i < (b + 1) * cf->hand_size; i++)
            h->counts[seat][pack[i]]++;
        h->sizes[seat] = cf->hand_size;
    }
    int dealt = cf->players * cf->hand_size;
    h->pile[h->npile++] = pack[dealt];
    for (int i = dealt + 1; i < n; i++) h->stock[h->nstock++] = pack[i];
    h->turn = (dealer + 1) % cf->players;
    h->phase = PN_PH_DRAW;
    h->pending = -1;
    h->closer = -1;
}

/* What a hand's detail reports of every action: its type, then the depth (take), the
   meld index and cards (add), the cards (meld) as n then (face, stands for) pairs, the
   meld index and card (replace), the card (discard). */
typedef struct {
    uint8_t *bytes;
    Py_ssize_t n, cap;
    int failed;
} PnLog;

static void pn_log(PnLog *log, const uint8_t *bytes, int n) {
    if (log->failed) return;
    if (log->n + n > log->cap) {
        Py_ssize_t cap = log->cap ? 2 * log->cap : 1024;
        while (cap < log->n + n) cap *= 2;
        uint8_t *grown = PyMem_RawRealloc(log->bytes, (size_t)cap);
        if (!grown) {
            log->failed = 1;
            return;
        }
        log->bytes = grown;
        log->cap = cap;
    }
    memcpy(log->bytes + log->n, bytes, (size_t)n);
    log->n += n;
}

static void pn_log_action(PnLog *log, const PnAction *a) {
    uint8_t head[3] = {a->type, a->arg, a->n};
    if (a->type == PN_DRAW) {
        pn_log(log, head, 1);
    } else if (a->type == PN_TAKE || a->type == PN_DISCARD) {
        pn_log(log, head, 2);
    } else {
        if (a->type == PN_MELD)
            head[1] = a->n, pn_log(log, head, 2);
        else
            pn_log(log, head, 3);
        for (int k = 0; k < a->n; k++) {
            uint8_t pair[2] = {a->face[k], a->stands[k]};
            pn_log(log, pair, 2);
        }
    }
}

/* play_randomly; with a log, every action as pn_log_action writes it (a replacement's
   card is written here, before the meld changes), and in `options` how many legal
   actions each had to choose from (native 32-bit words). */
static int pn_play(const PnConfig *cf, PnHand *h, MT *r, PnSink *s, PnLog *log,
                   PnLog *options) {
    while (h->phase != PN_PH_OVER) {
        if (pn_enumerate(cf, h, s) < 0 || s->failed) return -1;
        if (!s->n) return -2;
        const PnAction *a = &s->items[mt_choice(r, s->n)];
        if (log) {
            uint32_t n = (uint32_t)s->n;
            pn_log(options, (const uint8_t *)&n, sizeof n);
            if (a->type == PN_REPLACE) {
                const PnMeld *m = &h->melds[a->arg];
                uint8_t body[3] = {PN_REPLACE, a->arg, m->stands[m->wild]};
                pn_log(log, body, 3);
            } else {
                pn_log_action(log, a);
            }
        }
        pn_do(cf, h, a);
    }
    return 0;
}

typedef struct {
    int melded[MAX_SEATS], in_hand[MAX_SEATS], bonus[MAX_SEATS], score[MAX_SEATS];
    int sides[MAX_SEATS], one_go;
} PnScore;

/* PinnacoloHand._score. */
static void pn_score(const PnConfig *cf, const PnHand *h, PnScore *out) {
    memset(out, 0, sizeof(*out));
    for (int i = 0; i < h->nmelds; i++) out->melded[h->melds[i].owner] += pn_points(&h->melds[i]);
    out->one_go = h->outcome == PN_CLOSED && !h->opened;
    for (int seat = 0; seat < cf->players; seat++) {
        int in_hand = 0;
        for (int f = 0; f < PN_FACES; f++) in_hand += pn_value(f) * h->counts[seat][f];
        out->in_hand[seat] = in_hand;
        if (seat == h->closer)
            out->bonus[seat] = out->one_go ? cf->one_go_bonus : cf->closing_bonus;
        if (!h->laid[seat])
            out->score[seat] = cf->double_hand ? -2 * in_hand : -cf->no_meld_points;
        else
            out->score[seat] = out->melded[seat] - in_hand + out->bonus[seat];
        out->sides[pn_side(cf, seat)] += out->score[seat];
    }
}

static int pn_config(PyObject *obj, PnConfig *cf) {
    if (!PyArg_ParseTuple(obj, "iiiiiiiiiii:pinnacolo config", &cf->players, &cf->pairs,
                          &cf->hand_size, &cf->taken_always, &cf->wilds_per_meld,
                          &cf->replaced_wild_melded, &cf->last_card_ends, &cf->closing_bonus,
                          &cf->one_go_bonus, &cf->double_hand, &cf->no_meld_points))
        return -1;
    if (cf->players < 2 || cf->players > MAX_SEATS || (cf->pairs && cf->players != 4) ||
        cf->hand_size < 1 || cf->hand_size * cf->players >= PN_PACK) {
        PyErr_SetString(PyExc_ValueError, "the hands and the stock do not make the pack");
        return -1;
    }
    if (cf->wilds_per_meld != 1) {
        PyErr_SetString(PyExc_ValueError, "the kernel plays one wild a meld only");
        return -1;
    }
    return 0;
}

static PyObject *pn_detail(const PnConfig *cf, const PnHand *h, const PnLog *log,
                           const PnLog *options) {
    PnScore sc;
    pn_score(cf, h, &sc);
    int nsides = cf->pairs ? 2 : cf->players;
    PyObject *seats = PyTuple_New(cf->players);
    if (!seats) return NULL;
    for (int s = 0; s < cf->players; s++) {
        PyObject *t = Py_BuildValue("(Oiiii)", h->laid[s] ? Py_True : Py_False, sc.melded[s],
                                    sc.in_hand[s], sc.bonus[s], sc.score[s]);
        if (!t) {
            Py_DECREF(seats);
            return NULL;
        }
        PyTuple_SET_ITEM(seats, s, t);
    }
    int hands[MAX_SEATS * PN_FACES];
    for (int s = 0; s < cf->players; s++)
        for (int f = 0; f < PN_FACES; f++) hands[s * PN_FACES + f] = h->counts[s][f];
    return Py_BuildValue("{s:i,s:i,s:O,s:N,s:N,s:i,s:y#,s:y#,s:N,s:i}", "outcome", h->outcome,
                         "closer", h->closer, "one_go", sc.one_go ? Py_True : Py_False, "seats",
                         seats, "scores", int_tuple(sc.sides, nsides), "actions", h->actions,
                         "log", (const char *)log->bytes, log->n, "options",
                         (const char *)options->bytes, options->n, "hands",
                         int_tuple(hands, cf->players * PN_FACES), "melds", h->nmelds);
}

PyDoc_STRVAR(pinnacolo_hands_doc,
             "pinnacolo_hands(config, game_seed, first, count, rng, detail) -> (rng_state, out)\n\n"
             "Pinnacolo's hands first .. first + count - 1 of a game (hand n dealt from\n"
             "splitmix64_output(game_seed, n), dealer n % players) played out at random as\n"
             "PinnacoloHand.play_randomly does with the generator rng. config: engine/kernel.py\n"
             "pinnacolo_config. out: a list of dicts per hand when detail (engine/kernel.py\n"
             "random_hands), else (hands by outcome: closed, stock out; actions; score sums\n"
             "by side).");

static PyObject *k_pinnacolo_hands(PyObject *self, PyObject *args) {
    PyObject *config, *rng_obj;
    unsigned long long game_seed;
    long long first, count;
    int detail;
    if (!PyArg_ParseTuple(args, "OKLLOp", &config, &game_seed, &first, &count, &rng_obj, &detail))
        return NULL;
    PnConfig cf;
    if (pn_config(config, &cf) < 0) return NULL;
    if (first < 0 || count < 0) {
        PyErr_SetString(PyExc_ValueError, "first and count must not be negative");
        return NULL;
    }
    MT *r = PyMem_Malloc(sizeof(MT));
    PnHand *h = PyMem_Malloc(sizeof(PnHand));
    PnSink sink = {0};
    PnLog log = {0}, options = {0};
    PyObject *out = NULL, *result = NULL;
    if (!r || !h) {
        PyErr_NoMemory();
        goto done;
    }
    if (mt_from_py(rng_obj, r) < 0) goto done;
    long long outcomes[2] = {0}, actions = 0, sums[MAX_SEATS] = {0};
    int nsides = cf.pairs ? 2 : cf.players;
    out = detail ? PyList_New(0) : NULL;
    if (detail && !out) goto done;
    int failed = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long n = first; n < first + count && !failed; n++) {
        pn_deal(&cf, splitmix64_output(game_seed, (uint64_t)n), (int)(n % cf.players), h);
        log.n = options.n = 0;
        int played = pn_play(&cf, h, r, &sink, detail ? &log : NULL, &options);
        if (played < 0 || log.failed || options.failed) {
            failed = played == -2 ? 3 : 1;
            break;
        }
        if (detail) {
            Py_BLOCK_THREADS
            PyObject *d = pn_detail(&cf, h, &log, &options);
            int bad = !d || PyList_Append(out, d) < 0;
            Py_XDECREF(d);
            Py_UNBLOCK_THREADS
            if (bad) {
                failed = 2;
                break;
            }
        } else {
            PnScore sc;
            pn_score(&cf, h, &sc);
            outcomes[h->outcome]++;
            actions += h->actions;
            for (int s = 0; s < nsides; s++) sums[s] += sc.sides[s];
        }
    }
    Py_END_ALLOW_THREADS
    if (failed == 1) PyErr_NoMemory();
    if (failed == 3) PyErr_SetString(PyExc_RuntimeError, "a position with no legal action");
    if (failed) goto done;
    PyObject *state = mt_to_py(r);
    if (!state) goto done;
    if (!detail) {
        PyObject *oc = PyTuple_New(2), *ss = PyTuple_New(nsides);
        for (int i = 0; i < 2; i++) PyTuple_SET_ITEM(oc, i, PyLong_FromLongLong(outcomes[i]));
        for (int s = 0; s < nsides; s++) PyTuple_SET_ITEM(ss, s, PyLong_FromLongLong(sums[s]));
        out = Py_BuildValue("(NLN)", oc, actions, ss);
        if (!out) {
            Py_DECREF(state);
            goto done;
        }
    }
    result = Py_BuildValue("(NO)", state, out);
done:
    Py_XDECREF(out);
    PyMem_Free(r);
    PyMem_Free(h);
    PyMem_RawFree(sink.items);
    PyMem_RawFree(log.bytes);
    PyMem_RawFree(options.bytes);
    return result;
}

#include "_handcore.c"
#include "_records.c"
#include "_enums.c"

static PyMethodDef methods[] = {
    {"random_hands", k_random_hands, METH_VARARGS, random_hands_doc},
    {"pinnacolo_hands", k_pinnacolo_hands, METH_VARARGS, pinnacolo_hands_doc},
    {"config", k_config, METH_O,
     "config(rules_tuple): the rules parsed once, for any function's config argument."},
    {"playouts", k_playouts, METH_VARARGS, playouts_doc},
    {"random_deals", k_random_deals, METH_VARARGS, random_deals_doc},
    {"sample_deal", k_sample_deal, METH_VARARGS, sample_deal_doc},
    {"search", k_search, METH_VARARGS, search_doc},
    {"declare", k_declare, METH_VARARGS, declare_doc},
    {"shuffled_pack", k_shuffled_pack, METH_VARARGS,
     "shuffled_pack(double_deck, seed): the pack shuffled by splitmix64-fy-v1."},
    {"deal", k_deal, METH_VARARGS,
     "deal(config, seed, dealer) -> (count vectors by seat, the rest of the pack)."},
    {"legal_mask", k_legal_mask, METH_VARARGS,
     "legal_mask(hand, led, winner, led_high, trump, head, if_winning, overtrump)."},
    {"trick_winner", k_trick_winner, METH_VARARGS,
     "trick_winner(faces, trump): the index of the card winning the trick."},
    {"meld_total", k_meld_total, METH_VARARGS, "meld_total(config, counts, trump)."},
    {"bind_hand", k_bind_hand, METH_VARARGS,
     "bind_hand(StateError, types, plays, cards, trumps, phases, outcomes): what the hand's "
     "core stands for (engine/handcore.py)."},
    {"mask_of", k_mask_of, METH_O, "mask_of(counts): the faces held, as bits."},
    {"cards_of", k_cards_of, METH_O, "cards_of(counts): the cards held, in face order."},
    {"meld_totals", k_meld_totals, METH_VARARGS,
     "meld_totals(config, hands, trump): each hand's meld total, as a list."},
    {"record_maker", k_record_maker, METH_VARARGS,
     "record_maker(cls, fields): a maker of frozen cls objects from its fields by position."},
    {"plain_member_reads", k_plain_member_reads, METH_O,
     "plain_member_reads(metaclass): its classes' attributes read as type's are."},
    {"mt_state", k_mt_seed, METH_O,
     "mt_state(seed): random.Random(seed).getstate() for a seed from 0 to 2**64 - 1."},
    {NULL, NULL, 0, NULL}};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine._kernel",
    "The hot loops of pinochle and Pinnacolo in C (see engine/kernel.py).", -1, methods, NULL,
    NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__kernel(void) {
    PyObject *made = PyModule_Create(&module);
    if (made && (handcore_add(made) < 0 || records_add(made) < 0)) Py_CLEAR(made);
    return made;
}
