/* The hot core of a pinochle hand for the public interface (engine/handcore.py says what
   it is; PyHandCore there is its twin in Python, and the two must agree step for step).

   A hand's state (engine.trickstate.TrickTakingState) derives from HandCore: its fields
   are the ones the state's Python code reads and writes by name, and a played card, a bid
   or a pass is taken here without running Python. Anything else, and anything refused,
   goes to the state's `_apply_py`, whose errors name the broken rule.

   Included by _kernel.c (legal_mask, takes, stronger, popcount, FACES, MAX_SEATS). */

#include <structmember.h>

/* What the Python side stands for, told once by bind_hand. */
static PyObject *hc_play_type, *hc_bid_type, *hc_pass_type, *hc_help_type, *hc_give_type,
    *hc_trump_type, *hc_plays, *hc_cards, *hc_name_trump;
static PyObject *hc_state_error;
static PyObject *hc_auction, *hc_trump, *hc_pass_to, *hc_pass_back, *hc_tricks, *hc_play_out,
    *hc_over, *hc_made, *hc_passed_out;
static PyObject *s_card, *s_cards, *s_suit, *s_apply_py, *s_finish, *s_end_auction,
    *s_after_trick, *s_after_trump, *s_meld, *s_legal_mask, *s_legal_count, *s_legal_item,
    *s_new_view;

typedef struct {
    PyObject_HEAD
    PyObject *phase, *hands, *masks, *actions, *auction, *passed, *tricks, *taken, *won, *view,
        *passes, *trick_cards, *bid_actions, *points, *sides, *given;
    int turn, trump, high_rung, high_bidder, active, head, hand_size, ladder_size, raise_limit;
    int led, win, led_high, leader, win_seat, nplayers, declarer, pass_count;
    char if_winning, overtrump, stuck, fast, marriage;
    long long legal;
    int pts[FACES];
    int side[MAX_SEATS];
} HandCore;

static PyTypeObject HandCoreType;
static int hc_set_points(HandCore *h, PyObject *value, void *unused);
static int hc_set_sides(HandCore *h, PyObject *value, void *unused);

static int hc_bound(void) {
    if (hc_play_type) return 0;
    PyErr_SetString(PyExc_RuntimeError, "engine._kernel.bind_hand was not called");
    return -1;
}

/* engine.errors.StateError once bound: a state whose fields were changed from outside. */
#define STATE_ERROR (hc_state_error ? hc_state_error : PyExc_ValueError)

/* -------------------------------------------------------------- list cells */

/* Fields may be unset (NULL) or overwritten from Python: checked before any read. */
#define IS_LIST(o) ((o) != NULL && PyList_Check(o))
#define IS_TUPLE(o) ((o) != NULL && PyTuple_Check(o))

static int list_int(PyObject *list, Py_ssize_t i, long *out) {
    if (!IS_LIST(list)) {
        PyErr_SetString(PyExc_TypeError, "the hand's core expects a list");
        return -1;
    }
    PyObject *item = PyList_GetItem(list, i);
    if (!item) return -1;
    *out = int_value(item);
    return *out == -1 && PyErr_Occurred() ? -1 : 0;
}

static int list_set_int(PyObject *list, Py_ssize_t i, long value) {
    PyObject *item = PyLong_FromLong(value);
    if (!item) return -1;
    return PyList_SetItem(list, i, item); /* steals item, checks the list and index */
}

static int list_add(PyObject *list, Py_ssize_t i, long delta) {
    long value;
    if (list_int(list, i, &value) < 0) return -1;
    return list_set_int(list, i, value + delta);
}

/* ----------------------------------------------------------------- steps */

/* Whether the fields a step reads are what the state keeps there (lists, a seat to move):
   a state whose fields were overwritten gets an error, never a read out of bounds. */
static int hc_ready(HandCore *h) {
    PyObject *lists[] = {h->hands, h->masks, h->actions, h->tricks, h->taken, h->won,
                         h->trick_cards};
    int ok = h->phase != NULL && h->turn >= 0 && h->turn < h->nplayers;
    for (size_t i = 0; ok && i < sizeof lists / sizeof lists[0]; i++)
        ok = IS_LIST(lists[i]);
    if (ok) return 0;
    PyErr_SetString(STATE_ERROR, "the hand's core is not set up for this step");
    return -1;
}

static int hc_valid(HandCore *h) {
    if (hc_ready(h) == 0) return 1;
    PyErr_Clear();
    return 0;
}

#define ALL_FACES ((1u << FACES) - 1u)

/* PyHandCore._legal_mask: kept until the position changes. */
static long long hc_mask(HandCore *h) {
    if (h->legal >= 0) return h->legal & ALL_FACES;
    long hand;
    if (hc_ready(h) < 0 || list_int(h->masks, h->turn, &hand) < 0) return -1;
    int trick_ok = h->trump >= 0 && h->trump < 4 && h->led < 4 && h->win >= 0 &&
                   h->win < FACES && h->led_high >= 0 && h->led_high < FACES;
    if (h->led >= 0 && !trick_ok) {
        PyErr_SetString(STATE_ERROR, "the hand's core holds no trick to play to");
        return -1;
    }
    h->legal = legal_mask((uint32_t)hand & ALL_FACES, h->led, h->win, h->led_high, h->trump,
                          h->head, h->if_winning, h->overtrump);
    return h->legal;
}

/* The mask `apply` checks with: the core's own, or the class's `_legal_mask`. */
static long long hc_mask_of(HandCore *h) {
    if (h->fast || h->legal >= 0) return hc_mask(h);
    PyObject *mask = PyObject_CallMethodNoArgs((PyObject *)h, s_legal_mask);
    if (!mask) return -1;
    long long value = PyLong_AsLongLong(mask);
    Py_DECREF(mask);
    return value < 0 ? value : (value & ALL_FACES);
}

static int hc_call(HandCore *h, PyObject *name, PyObject *arg) {
    PyObject *done = arg ? PyObject_CallMethodOneArg((PyObject *)h, name, arg)
                         : PyObject_CallMethodNoArgs((PyObject *)h, name);
    if (!done) return -1;
    Py_DECREF(done);
    return 0;
}

/* PyHandCore._end_trick. */
static int hc_end_trick(HandCore *h) {
    PyObject *cards = h->trick_cards;
    Py_ssize_t n = PyList_GET_SIZE(cards);
    long pot = 0;
    for (Py_ssize_t i = 0; i < n; i++) {
        long face;
        if (list_int(cards, i, &face) < 0) return -1;
        if (face < 0 || face >= FACES) {
            PyErr_SetString(STATE_ERROR, "a trick holds faces 0 to 23");
            return -1;
        }
        pot += h->pts[face];
    }
    int winner = h->win_seat;
    if (winner < 0 || winner >= h->nplayers) {
        PyErr_SetString(STATE_ERROR, "the trick's winner is not a seat");
        return -1;
    }
    int side = h->side[winner];
    if (list_add(h->taken, side, pot) < 0 || list_add(h->won, side, 1) < 0) return -1;
    PyObject *played = PyList_AsTuple(cards);
    if (!played) return -1;
    PyObject *leader = PyLong_FromLong(h->leader), *seat = PyLong_FromLong(winner);
    PyObject *record = leader && seat ? PyTuple_Pack(3, leader, played, seat) : NULL;
    Py_XDECREF(leader);
    Py_XDECREF(seat);
    Py_DECREF(played);
    if (!record) return -1;
    int failed = PyList_Append(h->tricks, record);
    Py_DECREF(record);
    if (failed || PyList_SetSlice(cards, 0, n, NULL) < 0) return -1;
    h->led = -1;
    h->turn = winner;
    if (!h->fast) return hc_call(h, s_after_trick, NULL);
    if (PyList_GET_SIZE(h->tricks) == h->hand_size) return hc_call(h, s_finish, hc_made);
    return 0;
}

static int hc_play_ready(HandCore *h, int face);

/* PyHandCore._play: `face` for the seat to move, already checked legal. */
static int hc_play(HandCore *h, int face) {
    if (hc_ready(h) < 0) return -1;
    return hc_play_ready(h, face);
}

/* hc_play once hc_ready has passed, with no Python run since. */
static int hc_play_ready(HandCore *h, int face) {
    int seat = h->turn;
    int in_trick = PyList_GET_SIZE(h->trick_cards) > 0;
    if (in_trick && (h->win < 0 || h->win >= FACES || h->led_high < 0 || h->led_high >= FACES ||
                     h->trump < 0 || h->trump > 3)) {
        PyErr_SetString(STATE_ERROR, "the hand's core holds no trick to play to");
        return -1;
    }
    PyObject *hand = PyList_GetItem(h->hands, seat);
    long left;
    if (!hand || list_int(hand, face, &left) < 0) return -1;
    if (left <= 0) {
        PyErr_Format(STATE_ERROR, "seat %d holds no card of face %d", seat, face);
        return -1;
    }
    if (list_set_int(hand, face, left - 1) < 0) return -1;
    h->legal = -1;
    if (left == 1) {
        long mask;
        if (list_int(h->masks, seat, &mask) < 0 ||
            list_set_int(h->masks, seat, mask & ~(1L << face)) < 0)
            return -1;
    }
    PyObject *cards = h->trick_cards;
    if (in_trick) {
        if (takes(h->win, h->trump) >> face & 1) {
            h->win = face;
            h->win_seat = seat;
        }
        if (stronger(h->led_high) >> face & 1) h->led_high = face;
    } else {
        h->leader = h->win_seat = seat;
        h->led = face / 6;
        h->win = h->led_high = face;
    }
    PyObject *card = PyLong_FromLong(face);
    if (!card) return -1;
    int failed = PyList_Append(cards, card);
    Py_DECREF(card);
    if (failed) return -1;
    if (PyList_GET_SIZE(cards) < h->nplayers) {
        h->turn = seat + 1 < h->nplayers ? seat + 1 : 0;
        return 0;
    }
    return hc_end_trick(h);
}

/* TrickTakingState._next_bidder. */
static int hc_next_bidder(HandCore *h) {
    if (h->active == 0) return hc_call(h, s_finish, hc_passed_out);
    if (h->active == 1 && h->high_bidder >= 0) return hc_call(h, s_end_auction, NULL);
    int seat = h->turn;
    for (int step = 0; step < h->nplayers; step++) {
        seat = seat + 1 < h->nplayers ? seat + 1 : 0;
        PyObject *passed = PyList_GetItem(h->passed, seat);
        if (!passed) return -1;
        int out = PyObject_IsTrue(passed);
        if (out < 0) return -1;
        if (!out) {
            h->turn = seat;
            return 0;
        }
    }
    PyErr_SetString(STATE_ERROR, "nobody is left to bid");
    return -1;
}

/* TrickTakingState._pass_actions and _bid_rungs: the number of passes allowed (none for a
   stuck dealer), and the rungs from `low` to `high` (excluded). */
static int hc_calls(const HandCore *h, int *low, int *high) {
    if (h->active == 1 && h->high_bidder < 0 && h->stuck) {
        *low = 0;
        *high = 1;
        return 0;
    }
    *low = h->high_rung + 1;
    *high = h->ladder_size;
    if (h->raise_limit >= 0 && *low + h->raise_limit < *high) *high = *low + h->raise_limit;
    if (*high < *low) *high = *low;
    if (*low < 0) *low = *high = 0; /* an overwritten rung: the core offers no bid */
    return (int)PyTuple_GET_SIZE(h->passes);
}

/* A call of the auction the core takes itself: 1 when taken, 0 when it is for Python. */
static int hc_call_of(HandCore *h, PyObject *action) {
    if (!IS_TUPLE(h->passes) || !IS_TUPLE(h->bid_actions) || !IS_LIST(h->passed) ||
        !IS_LIST(h->auction) || h->turn < 0 || h->turn >= h->nplayers)
        return 0;
    int low, high, npass = hc_calls(h, &low, &high);
    if (Py_IS_TYPE(action, (PyTypeObject *)hc_bid_type)) {
        if (high > PyTuple_GET_SIZE(h->bid_actions)) return 0;
        int rung = -1;
        for (int r = low; r < high; r++)
            if (PyTuple_GET_ITEM(h->bid_actions, r) == action) rung = r;
        if (rung < 0) return 0; /* not one of the ladder's own: Python compares amounts */
        h->high_rung = rung;
        h->high_bidder = h->turn;
    } else if (Py_IS_TYPE(action, (PyTypeObject *)hc_pass_type) ||
               (Py_IS_TYPE(action, (PyTypeObject *)hc_help_type) && npass == 2)) {
        if (h->active == 1 && h->high_bidder < 0 && h->stuck) return 0;
        if (PyList_SetItem(h->passed, h->turn, Py_NewRef(Py_True)) < 0) return -1;
        h->active--;
    } else {
        return 0;
    }
    PyObject *turn = PyLong_FromLong(h->turn);
    PyObject *call = turn ? PyTuple_Pack(2, turn, action) : NULL;
    Py_XDECREF(turn);
    if (!call) return -1;
    int failed = PyList_Append(h->auction, call);
    Py_DECREF(call);
    if (failed || hc_next_bidder(h) < 0) return -1;
    return 1;
}

/* The suits the declarer may name (TrickTakingState._trump_choices), as bits. */
static int hc_trump_suits(HandCore *h) {
    if (!h->marriage) return 0xF;
    PyObject *hand = h->declarer >= 0 && h->declarer < h->nplayers && IS_LIST(h->hands)
                         ? PyList_GetItem(h->hands, h->declarer)
                         : NULL;
    if (!hand) {
        PyErr_Clear();
        return -1;
    }
    int suits = 0;
    for (int suit = 0; suit < 4; suit++) {
        long kings, queens;
        if (list_int(hand, suit * 6 + 2, &kings) < 0 || list_int(hand, suit * 6 + 3, &queens) < 0) {
            PyErr_Clear();
            return -1;
        }
        if (kings && queens) suits |= 1 << suit;
    }
    return suits;
}

/* TrickTakingState._apply_trump, for a suit the declarer may name: 1 when taken. */
static int hc_name_trump_of(HandCore *h, PyObject *action) {
    if (!Py_IS_TYPE(action, (PyTypeObject *)hc_trump_type)) return 0;
    PyObject *named = PyObject_GetAttr(action, s_suit);
    if (!named) return -1;
    long suit = PyLong_AsLong(named);
    Py_DECREF(named);
    if (suit == -1 && PyErr_Occurred()) return -1;
    int suits = hc_trump_suits(h);
    if (suits < 0 || suit < 0 || suit > 3 || !(suits >> suit & 1)) return 0;
    h->trump = (int)suit;
    return hc_call(h, s_after_trump, NULL) < 0 ? -1 : 1;
}

/* HandState._apply_give, for cards the giver holds: 1 when taken. */
static int hc_give_of(HandCore *h, PyObject *action) {
    if (!Py_IS_TYPE(action, (PyTypeObject *)hc_give_type) || h->pass_count <= 0 ||
        h->nplayers != 4 || !h->given || !IS_LIST(h->given) || !IS_LIST(h->hands) ||
        h->turn < 0 || h->turn > 3)
        return 0;
    PyObject *cards = PyObject_GetAttr(action, s_cards);
    if (!cards) return -1;
    int wanted[FACES] = {0}, ok = PyTuple_Check(cards) && PyTuple_GET_SIZE(cards) == h->pass_count;
    for (Py_ssize_t i = 0; ok && i < PyTuple_GET_SIZE(cards); i++) {
        long face = PyLong_AsLong(PyTuple_GET_ITEM(cards, i));
        if (face == -1 && PyErr_Occurred()) PyErr_Clear();
        ok = face >= 0 && face < FACES;
        if (ok) wanted[face]++;
    }
    int giver = h->turn, receiver = (giver + 2) % 4;
    PyObject *hand = ok ? PyList_GetItem(h->hands, giver) : NULL;
    PyObject *target = ok ? PyList_GetItem(h->hands, receiver) : NULL;
    long held[FACES], has[FACES], from_mask, to_mask;
    ok = hand && target && list_int(h->masks, giver, &from_mask) == 0 &&
         list_int(h->masks, receiver, &to_mask) == 0;
    for (int f = 0; ok && f < FACES; f++) {
        if (!wanted[f]) continue;
        ok = list_int(hand, f, &held[f]) == 0 && list_int(target, f, &has[f]) == 0 &&
             held[f] >= wanted[f];
    }
    if (!ok) { /* refused (or not ours): Python says which rule */
        PyErr_Clear();
        Py_DECREF(cards);
        return 0;
    }
    for (int f = 0; f < FACES; f++) {
        if (!wanted[f]) continue;
        if (list_set_int(hand, f, held[f] - wanted[f]) < 0 ||
            list_set_int(target, f, has[f] + wanted[f]) < 0) {
            Py_DECREF(cards);
            return -1;
        }
        if (held[f] == wanted[f]) from_mask &= ~(1L << f);
        to_mask |= 1L << f;
    }
    int failed = list_set_int(h->masks, giver, from_mask) < 0 ||
                 list_set_int(h->masks, receiver, to_mask) < 0 ||
                 PyList_Append(h->given, cards) < 0;
    Py_DECREF(cards);
    if (failed) return -1;
    if (h->phase == hc_pass_to) {
        Py_SETREF(h->phase, Py_NewRef(hc_pass_back));
        h->turn = receiver;
        return 1;
    }
    return hc_call(h, s_meld, NULL) < 0 ? -1 : 1;
}

/* ------------------------------------------------------------ HandCore */

static PyObject *hc_apply(HandCore *h, PyObject *action) {
    if (hc_bound() < 0) return NULL;
    /* A state not set up as the core keeps it is Python's to refuse. */
    int fast = h->fast && hc_valid(h);
    if (fast && h->phase == hc_tricks && Py_IS_TYPE(action, (PyTypeObject *)hc_play_type)) {
        /* The plays the legal actions hand out are the interned ones: found by identity,
           without reading the card. */
        long face = -1;
        for (int f = 0; f < FACES; f++)
            if (PyTuple_GET_ITEM(hc_plays, f) == action) {
                face = f;
                break;
            }
        if (face < 0) {
            PyObject *card = PyObject_GetAttr(action, s_card);
            if (!card) return NULL;
            face = PyLong_AsLong(card);
            Py_DECREF(card);
            if (face == -1 && PyErr_Occurred()) return NULL;
        }
        if (face >= 0 && face < FACES) {
            long long mask = hc_mask(h);
            if (mask < 0) return NULL;
            if (mask >> face & 1) {
                if (hc_play_ready(h, (int)face) < 0 || PyList_Append(h->actions, action) < 0)
                    return NULL;
                Py_RETURN_NONE;
            }
        }
    } else if (fast) {
        int taken = 0;
        if (h->phase == hc_auction) taken = hc_call_of(h, action);
        else if (h->phase == hc_trump) taken = hc_name_trump_of(h, action);
        else if (h->phase == hc_pass_to || h->phase == hc_pass_back) taken = hc_give_of(h, action);
        if (taken < 0) return NULL;
        if (taken) {
            h->legal = -1;
            if (PyList_Append(h->actions, action) < 0) return NULL;
            Py_RETURN_NONE;
        }
    }
    return PyObject_CallMethodOneArg((PyObject *)h, s_apply_py, action);
}

static PyObject *hc_is_terminal(HandCore *h, PyObject *unused) {
    return PyBool_FromLong(hc_over && h->phase == hc_over);
}

static PyObject *hc_legal_mask_method(HandCore *h, PyObject *unused) {
    long long mask = hc_mask(h);
    return mask < 0 ? NULL : PyLong_FromLongLong(mask);
}

static PyObject *hc_play_method(HandCore *h, PyObject *arg) {
    long face = PyLong_AsLong(arg);
    if (face == -1 && PyErr_Occurred()) return NULL;
    if (face < 0 || face >= FACES) {
        PyErr_SetString(PyExc_ValueError, "a face is 0 to 23");
        return NULL;
    }
    if (hc_bound() < 0 || hc_play(h, (int)face) < 0) return NULL;
    Py_RETURN_NONE;
}

/* PyHandCore._random_tricks: random legal cards, one draw of `draw()` each, to the end of
   the hand (the same cards as the Python loop for the same draws). */
static PyObject *hc_random_tricks(HandCore *h, PyObject *draw) {
    if (hc_bound() < 0) return NULL;
    if (!h->fast) {
        PyErr_SetString(STATE_ERROR, "this game plays its own tricks");
        return NULL;
    }
    /* A hand has at most 80 cards: more plays mean fields overwritten, not a hand. */
    for (int plays = 0; h->phase == hc_tricks; plays++) {
        if (plays == 96) {
            PyErr_SetString(STATE_ERROR, "the hand does not end: its fields were changed");
            return NULL;
        }
        long long wide = hc_mask(h); /* checks the fields unless the mask is kept */
        if (wide < 0) return NULL;
        uint32_t mask = (uint32_t)wide;
        int count = popcount(mask);
        if (!count) {
            PyErr_SetString(STATE_ERROR, "the seat to play holds no card");
            return NULL;
        }
        PyObject *drawn = PyObject_CallNoArgs(draw);
        if (!drawn) return NULL;
        double x = PyFloat_AsDouble(drawn);
        Py_DECREF(drawn);
        if (x == -1.0 && PyErr_Occurred()) return NULL;
        int skip = (int)(x * count);
        if (skip < 0 || skip >= count) {
            PyErr_SetString(STATE_ERROR, "a draw is from 0 to 1 (excluded)");
            return NULL;
        }
        while (skip--) mask &= mask - 1;
        int face = lowest(mask);
        if (PyList_Append(h->actions, PyTuple_GET_ITEM(hc_plays, face)) < 0 ||
            hc_play(h, face) < 0)
            return NULL;
    }
    Py_RETURN_NONE;
}

/* A list of `n` copies of `item` (a new reference). */
static PyObject *repeated(PyObject *item, Py_ssize_t n) {
    PyObject *list = PyList_New(n);
    for (Py_ssize_t i = 0; list && i < n; i++) PyList_SET_ITEM(list, i, Py_NewRef(item));
    return list;
}

/* The core of a hand just dealt, from `counts` (one row a seat): `core` is the rules'
   part (Rules._tables.core), `seating` the class's (TrickTakingState._SEATING); `hands`
   are the count lists the state keeps (made here when NULL). Returns the hands as dealt,
   as tuples. */
static PyObject *hc_setup_counts(HandCore *h, PyObject *core, PyObject *seating,
                                 int counts[][FACES], Py_ssize_t seats, PyObject *hands,
                                 int dealer) {
    if (hc_bound() < 0) return NULL;
    if (!PyTuple_Check(core) || !PyTuple_Check(seating) || PyTuple_GET_SIZE(core) != 11 ||
        PyTuple_GET_SIZE(seating) != 4) {
        PyErr_SetString(STATE_ERROR, "_setup: the rules' 11 and the class's 4 values");
        return NULL;
    }
    long values[7]; /* head, hand size, ladder size, raise limit; seats, sides, fast */
    PyObject *ints[] = {PyTuple_GET_ITEM(core, 0), PyTuple_GET_ITEM(core, 4),
                        PyTuple_GET_ITEM(core, 5), PyTuple_GET_ITEM(core, 6),
                        PyTuple_GET_ITEM(seating, 0), PyTuple_GET_ITEM(seating, 2),
                        PyTuple_GET_ITEM(seating, 3)};
    for (int i = 0; i < 7; i++) {
        values[i] = PyLong_AsLong(ints[i]);
        if (values[i] == -1 && PyErr_Occurred()) return NULL;
    }
    int flags[4]; /* if winning, overtrump, stuck, marriage */
    PyObject *bools[] = {PyTuple_GET_ITEM(core, 1), PyTuple_GET_ITEM(core, 2),
                         PyTuple_GET_ITEM(core, 9), PyTuple_GET_ITEM(core, 10)};
    for (int i = 0; i < 4; i++)
        if ((flags[i] = PyObject_IsTrue(bools[i])) < 0) return NULL;
    long players = values[4], nsides = values[5];
    PyObject *passes = PyTuple_GET_ITEM(core, 7), *bids = PyTuple_GET_ITEM(core, 8);
    if (players < 2 || players > MAX_SEATS || nsides < 1 || nsides > players ||
        dealer < 0 || dealer >= players || seats != players || !PyTuple_Check(passes) ||
        !PyTuple_Check(bids)) {
        PyErr_SetString(STATE_ERROR, "_setup: seats, sides, dealer or hands out of range");
        return NULL;
    }
    uint32_t masks[MAX_SEATS];
    for (int s = 0; s < players; s++) {
        masks[s] = 0;
        for (int f = 0; f < FACES; f++) {
            if (counts[s][f] < 0 || counts[s][f] > 8) {
                PyErr_SetString(STATE_ERROR, "_setup: a count is 0 to 8");
                return NULL;
            }
            if (counts[s][f]) masks[s] |= 1u << f;
        }
    }
    /* The tables through their setters, which check them. */
    if (hc_set_points(h, PyTuple_GET_ITEM(core, 3), NULL) < 0 ||
        hc_set_sides(h, PyTuple_GET_ITEM(seating, 1), NULL) < 0)
        return NULL;
    PyObject *zero = PyLong_FromLong(0);
    PyObject *fresh[] = {PyList_New(0),
                         PyList_New(0),
                         repeated(Py_False, players),
                         PyList_New(0),
                         PyList_New(0),
                         zero ? repeated(zero, nsides) : NULL,
                         zero ? repeated(zero, nsides) : NULL,
                         PyList_New(players),
                         PyTuple_New(players),
                         hands ? Py_NewRef(hands) : PyList_New(players)};
    Py_XDECREF(zero);
    enum { N_FRESH = sizeof fresh / sizeof fresh[0] };
    PyObject *mask_list = fresh[7], *dealt = fresh[8], *kept = fresh[9];
    int failed = 0;
    for (int i = 0; i < N_FRESH; i++) failed |= fresh[i] == NULL;
    for (int s = 0; !failed && s < players; s++) {
        PyObject *m = PyLong_FromUnsignedLong(masks[s]);
        PyObject *row = PyTuple_New(FACES);
        PyObject *list = hands ? NULL : PyList_New(FACES);
        if (!m || !row || (!hands && !list)) {
            Py_XDECREF(m);
            Py_XDECREF(row);
            Py_XDECREF(list);
            failed = 1;
            break;
        }
        PyList_SET_ITEM(mask_list, s, m);
        PyTuple_SET_ITEM(dealt, s, row);
        if (list) PyList_SET_ITEM(kept, s, list);
        for (int f = 0; f < FACES && !failed; f++) {
            PyObject *n = PyLong_FromLong(counts[s][f]);
            if (!n) {
                failed = 1;
                break;
            }
            PyTuple_SET_ITEM(row, f, n);
            if (list) PyList_SET_ITEM(list, f, Py_NewRef(n));
        }
    }
    if (failed) {
        for (int i = 0; i < N_FRESH; i++) Py_XDECREF(fresh[i]);
        return NULL;
    }
    Py_XSETREF(h->actions, fresh[0]);
    Py_XSETREF(h->auction, fresh[1]);
    Py_XSETREF(h->passed, fresh[2]);
    Py_XSETREF(h->trick_cards, fresh[3]);
    Py_XSETREF(h->tricks, fresh[4]);
    Py_XSETREF(h->taken, fresh[5]);
    Py_XSETREF(h->won, fresh[6]);
    Py_XSETREF(h->masks, mask_list);
    Py_XSETREF(h->hands, kept);
    Py_XSETREF(h->passes, Py_NewRef(passes));
    Py_XSETREF(h->bid_actions, Py_NewRef(bids));
    Py_XSETREF(h->phase, Py_NewRef(hc_auction));
    h->nplayers = (int)players;
    h->active = (int)players;
    h->turn = (dealer + 1) % (int)players;
    h->high_rung = h->high_bidder = h->declarer = h->trump = -1;
    h->leader = h->led = h->win = h->win_seat = h->led_high = -1;
    h->legal = -1;
    h->head = (int)values[0];
    h->hand_size = (int)values[1];
    h->ladder_size = (int)values[2];
    h->raise_limit = (int)values[3];
    h->fast = values[6] != 0;
    h->if_winning = (char)flags[0];
    h->overtrump = (char)flags[1];
    h->stuck = (char)flags[2];
    h->marriage = (char)flags[3];
    h->pass_count = 0;
    return dealt;
}

/* PyHandCore._setup(core, seating, hands, dealer): the count lists `hands` become the
   state's own. */
static PyObject *hc_setup(HandCore *h, PyObject *args) {
    PyObject *core, *seating, *hands;
    int dealer;
    if (!PyArg_ParseTuple(args, "OOO!i:_setup", &core, &seating, &PyList_Type, &hands, &dealer))
        return NULL;
    Py_ssize_t seats = PyList_GET_SIZE(hands);
    int counts[MAX_SEATS][FACES];
    if (seats > MAX_SEATS) seats = MAX_SEATS + 1; /* refused below, nothing read */
    for (Py_ssize_t s = 0; s < seats && s < MAX_SEATS; s++) {
        PyObject *hand = PyList_GET_ITEM(hands, s);
        int n = PyList_Check(hand) ? read_ints(hand, counts[s], FACES, "counts") : -2;
        if (n != FACES) {
            if (n != -1) PyErr_SetString(STATE_ERROR, "_setup: a hand is 24 counts");
            return NULL;
        }
    }
    return hc_setup_counts(h, core, seating, counts, seats, hands, dealer);
}

/* _deal(config, seed, dealer, core, seating): the kernel's deal (the pack shuffled by
   splitmix64-fy-v1, dealt in blocks) set up as _setup does, without count lists passed
   through Python. Returns (the hands as dealt, the rest of the pack in deal order). */
static PyObject *hc_deal(HandCore *h, PyObject *args) {
    PyObject *config, *core, *seating;
    unsigned long long seed;
    int dealer;
    if (!PyArg_ParseTuple(args, "OKiOO:_deal", &config, &seed, &dealer, &core, &seating))
        return NULL;
    Config *c = config_acquire(config);
    if (!c) return NULL;
    int players = c->players;
    Hand hand;
    if (dealer >= 0 && dealer < players) deal_hand(c, seed, dealer, &hand);
    config_release(config, c);
    if (dealer < 0 || dealer >= players) {
        PyErr_SetString(STATE_ERROR, "the dealer is a seat");
        return NULL;
    }
    int counts[MAX_SEATS][FACES];
    for (int s = 0; s < players; s++)
        for (int f = 0; f < FACES; f++) counts[s][f] = hand.counts[s][f];
    PyObject *rest = PyList_New(hand.nwidow);
    for (int i = 0; rest && i < hand.nwidow; i++) {
        PyObject *face = PyLong_FromLong(hand.widow[i]);
        if (!face) Py_CLEAR(rest);
        else PyList_SET_ITEM(rest, i, face);
    }
    PyObject *dealt = rest ? hc_setup_counts(h, core, seating, counts, players, NULL, dealer)
                           : NULL;
    if (!dealt) {
        Py_XDECREF(rest);
        return NULL;
    }
    return Py_BuildValue("(NN)", dealt, rest);
}

/* A list's copy, one level deep when `deep` (the hands' count lists); anything else as is. */
static PyObject *copied(PyObject *value, int deep) {
    if (!value || !PyList_CheckExact(value)) return Py_XNewRef(value);
    Py_ssize_t n = PyList_GET_SIZE(value);
    PyObject *copy = PyList_GetSlice(value, 0, n);
    for (Py_ssize_t i = 0; copy && deep && i < n; i++) {
        PyObject *inner = copied(PyList_GET_ITEM(copy, i), 0);
        if (!inner) Py_CLEAR(copy);
        else PyList_SetItem(copy, i, inner);
    }
    return copy;
}

/* PyHandCore._copy_core: every core field into `other`, lists copied (the view excepted:
   the copy's own is made by the state). */
static PyObject *hc_copy_core(HandCore *h, PyObject *arg) {
    if (!PyObject_TypeCheck(arg, &HandCoreType)) {
        PyErr_SetString(PyExc_TypeError, "a hand's core copies into another hand's");
        return NULL;
    }
    HandCore *o = (HandCore *)arg;
    PyObject **from[] = {&h->phase, &h->hands, &h->masks, &h->actions, &h->auction,
                         &h->passed, &h->tricks, &h->taken, &h->won, &h->passes,
                         &h->trick_cards, &h->bid_actions, &h->points, &h->sides,
                         &h->given};
    PyObject **to[] = {&o->phase, &o->hands, &o->masks, &o->actions, &o->auction,
                       &o->passed, &o->tricks, &o->taken, &o->won, &o->passes,
                       &o->trick_cards, &o->bid_actions, &o->points, &o->sides,
                       &o->given};
    for (size_t i = 0; i < sizeof from / sizeof from[0]; i++) {
        PyObject *value = copied(*from[i], from[i] == &h->hands);
        if (!value && *from[i]) return NULL;
        Py_XSETREF(*to[i], value);
    }
    o->turn = h->turn;
    o->trump = h->trump;
    o->high_rung = h->high_rung;
    o->high_bidder = h->high_bidder;
    o->active = h->active;
    o->head = h->head;
    o->hand_size = h->hand_size;
    o->ladder_size = h->ladder_size;
    o->raise_limit = h->raise_limit;
    o->led = h->led;
    o->win = h->win;
    o->led_high = h->led_high;
    o->leader = h->leader;
    o->win_seat = h->win_seat;
    o->nplayers = h->nplayers;
    o->declarer = h->declarer;
    o->pass_count = h->pass_count;
    o->marriage = h->marriage;
    o->if_winning = h->if_winning;
    o->overtrump = h->overtrump;
    o->stuck = h->stuck;
    o->fast = h->fast;
    o->legal = h->legal;
    memcpy(o->pts, h->pts, sizeof h->pts);
    memcpy(o->side, h->side, sizeof h->side);
    Py_RETURN_NONE;
}

static PyObject *hc_get_phase(HandCore *h, void *unused) {
    if (!h->phase) {
        PyErr_SetString(PyExc_AttributeError, "_phase");
        return NULL;
    }
    return Py_NewRef(h->phase);
}

static PyObject *hc_get_current_player(HandCore *h, void *unused) {
    if (hc_over && h->phase == hc_over) Py_RETURN_NONE;
    return PyLong_FromLong(h->turn);
}

static PyObject *hc_get_legal_actions(HandCore *h, void *unused) {
    if (h->view && h->view != Py_None) return Py_NewRef(h->view);
    return PyObject_CallMethodNoArgs((PyObject *)h, s_new_view);
}

/* `_points`, `_sides`: tuples kept as given, read into C arrays. */
static int read_table(PyObject *value, int *out, int size, int low, int high, const char *what) {
    PyObject *items = value ? PySequence_Fast(value, what) : NULL;
    if (!value) PyErr_Format(PyExc_AttributeError, "%s cannot be deleted", what);
    if (!items) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(items);
    int ok = n <= size;
    for (Py_ssize_t i = 0; ok && i < n; i++) {
        long v = int_value(PySequence_Fast_GET_ITEM(items, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(items);
            return -1;
        }
        ok = v >= low && v <= high;
        out[i] = (int)v;
    }
    Py_DECREF(items);
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s: at most %d values from %d to %d", what, size, low,
                     high);
        return -1;
    }
    return 0;
}

static PyObject *hc_get_points(HandCore *h, void *unused) {
    if (!h->points) return PyErr_Format(PyExc_AttributeError, "_points");
    return Py_NewRef(h->points);
}

static int hc_set_points(HandCore *h, PyObject *value, void *unused) {
    int pts[FACES] = {0};
    if (read_table(value, pts, FACES, 0, 1000, "_points") < 0) return -1;
    memcpy(h->pts, pts, sizeof pts);
    Py_XSETREF(h->points, Py_NewRef(value));
    return 0;
}

static PyObject *hc_get_sides(HandCore *h, void *unused) {
    if (!h->sides) return PyErr_Format(PyExc_AttributeError, "_sides");
    return Py_NewRef(h->sides);
}

static int hc_set_sides(HandCore *h, PyObject *value, void *unused) {
    int side[MAX_SEATS] = {0};
    if (read_table(value, side, MAX_SEATS, 0, MAX_SEATS - 1, "_sides") < 0) return -1;
    memcpy(h->side, side, sizeof side);
    Py_XSETREF(h->sides, Py_NewRef(value));
    return 0;
}

static int hc_set_nplayers(HandCore *h, PyObject *value, void *unused) {
    long n = value ? PyLong_AsLong(value) : -1;
    if (n == -1 && PyErr_Occurred()) return -1;
    if (n < 2 || n > MAX_SEATS) {
        PyErr_SetString(PyExc_ValueError, "_nplayers: two to four seats");
        return -1;
    }
    h->nplayers = (int)n;
    return 0;
}

static PyObject *hc_get_nplayers(HandCore *h, void *unused) { return PyLong_FromLong(h->nplayers); }

static int hc_traverse(HandCore *h, visitproc visit, void *arg) {
    Py_VISIT(h->phase);
    Py_VISIT(h->hands);
    Py_VISIT(h->masks);
    Py_VISIT(h->actions);
    Py_VISIT(h->auction);
    Py_VISIT(h->passed);
    Py_VISIT(h->tricks);
    Py_VISIT(h->taken);
    Py_VISIT(h->won);
    Py_VISIT(h->view);
    Py_VISIT(h->passes);
    Py_VISIT(h->trick_cards);
    Py_VISIT(h->bid_actions);
    Py_VISIT(h->points);
    Py_VISIT(h->sides);
    Py_VISIT(h->given);
    return 0;
}

static int hc_clear(HandCore *h) {
    Py_CLEAR(h->phase);
    Py_CLEAR(h->hands);
    Py_CLEAR(h->masks);
    Py_CLEAR(h->actions);
    Py_CLEAR(h->auction);
    Py_CLEAR(h->passed);
    Py_CLEAR(h->tricks);
    Py_CLEAR(h->taken);
    Py_CLEAR(h->won);
    Py_CLEAR(h->view);
    Py_CLEAR(h->passes);
    Py_CLEAR(h->trick_cards);
    Py_CLEAR(h->bid_actions);
    Py_CLEAR(h->points);
    Py_CLEAR(h->sides);
    Py_CLEAR(h->given);
    return 0;
}

static void hc_dealloc(HandCore *h) {
    PyObject_GC_UnTrack(h);
    hc_clear(h);
    Py_TYPE(h)->tp_free((PyObject *)h);
}

static PyObject *hc_new(PyTypeObject *type, PyObject *args, PyObject *kwds) {
    HandCore *h = (HandCore *)type->tp_alloc(type, 0);
    if (!h) return NULL;
    h->nplayers = 4;
    h->legal = -1;
    h->led = h->win = h->led_high = h->leader = h->win_seat = h->trump = h->declarer = -1;
    return (PyObject *)h;
}

#define OBJ(name, field) {name, T_OBJECT_EX, offsetof(HandCore, field), 0, NULL}
#define INT(name, field) {name, T_INT, offsetof(HandCore, field), 0, NULL}
#define FLAG(name, field) {name, T_BOOL, offsetof(HandCore, field), 0, NULL}

static PyMemberDef hc_members[] = {
    OBJ("_phase", phase),
    OBJ("_hands", hands),
    OBJ("_masks", masks),
    OBJ("_actions", actions),
    OBJ("_auction", auction),
    OBJ("_passed", passed),
    OBJ("_tricks", tricks),
    OBJ("_taken", taken),
    OBJ("_won", won),
    OBJ("_view", view),
    OBJ("_passes", passes),
    OBJ("_trick_cards", trick_cards),
    OBJ("_bid_actions", bid_actions),
    OBJ("_given", given),
    INT("_declarer", declarer),
    INT("_pass_count", pass_count),
    FLAG("_marriage", marriage),
    INT("_turn", turn),
    INT("_trump", trump),
    INT("_high_rung", high_rung),
    INT("_high_bidder", high_bidder),
    INT("_active", active),
    INT("_head", head),
    INT("_hand_size", hand_size),
    INT("_ladder_size", ladder_size),
    INT("_raise_limit", raise_limit),
    INT("_led", led),
    INT("_win", win),
    INT("_led_high", led_high),
    INT("_leader", leader),
    INT("_win_seat", win_seat),
    FLAG("_if_winning", if_winning),
    FLAG("_overtrump", overtrump),
    FLAG("_stuck", stuck),
    FLAG("_fast", fast),
    {"_legal", T_LONGLONG, offsetof(HandCore, legal), 0, NULL},
    {NULL}};

static PyGetSetDef hc_getset[] = {
    {"phase", (getter)hc_get_phase, NULL, "The phase of the hand.", NULL},
    {"current_player", (getter)hc_get_current_player, NULL,
     "The seat to act, or None when the hand is over.", NULL},
    {"legal_actions", (getter)hc_get_legal_actions, NULL,
     "A live, lazy view of the current player's legal actions.", NULL},
    {"_points", (getter)hc_get_points, (setter)hc_set_points, "Counter points by face.", NULL},
    {"_sides", (getter)hc_get_sides, (setter)hc_set_sides, "Each seat's side.", NULL},
    {"_nplayers", (getter)hc_get_nplayers, (setter)hc_set_nplayers, "The seats.", NULL},
    {NULL}};

static PyMethodDef hc_methods[] = {
    {"apply", (PyCFunction)hc_apply, METH_O,
     "Apply the current player's action (or its text form); IllegalActionError names the "
     "broken rule, leaving the state unchanged."},
    {"is_terminal", (PyCFunction)hc_is_terminal, METH_NOARGS, "Whether the hand is over."},
    {"_legal_mask", (PyCFunction)hc_legal_mask_method, METH_NOARGS,
     "The faces the seat to move may play, as a bit mask."},
    {"_play", (PyCFunction)hc_play_method, METH_O, "Play a face already checked legal."},
    {"_random_tricks", (PyCFunction)hc_random_tricks, METH_O,
     "Play random legal cards, one draw of draw() each, to the end of the hand."},
    {"_setup", (PyCFunction)hc_setup, METH_VARARGS,
     "Set up the core of a hand just dealt; returns the hands as dealt."},
    {"_deal", (PyCFunction)hc_deal, METH_VARARGS,
     "Deal a hand from a seed and set up its core; returns the hands as dealt and the rest."},
    {"_copy_core", (PyCFunction)hc_copy_core, METH_O,
     "Copy every core field into another state's core (lists copied, not the view)."},
    {NULL}};

static PyTypeObject HandCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._kernel.HandCore",
    .tp_basicsize = sizeof(HandCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "The hot core of a pinochle hand (engine/handcore.py).",
    .tp_new = hc_new,
    .tp_dealloc = (destructor)hc_dealloc,
    .tp_traverse = (traverseproc)hc_traverse,
    .tp_clear = (inquiry)hc_clear,
    .tp_members = hc_members,
    .tp_getset = hc_getset,
    .tp_methods = hc_methods,
};

/* ------------------------------------------------------------ LegalCore */

typedef struct {
    PyObject_HEAD
    PyObject *state;
} LegalCore;

/* Whether `o` is a hand's core: the last class found to derive from HandCore is kept,
   as a subclass's check walks its bases (asked twice at every action). */
static int is_core(PyObject *o) {
    static PyTypeObject *known;
    if (Py_TYPE(o) == known) return 1;
    if (!PyObject_TypeCheck(o, &HandCoreType)) return 0;
    Py_XSETREF(known, (PyTypeObject *)Py_NewRef(Py_TYPE(o))); /* held: never a stale address */
    return 1;
}

static HandCore *lc_state(LegalCore *v) {
    if (!v->state || !is_core(v->state)) {
        PyErr_SetString(PyExc_TypeError, "the legal actions' view needs a hand state");
        return NULL;
    }
    return (HandCore *)v->state;
}

static Py_ssize_t lc_len(LegalCore *v) {
    HandCore *h = lc_state(v);
    if (!h || hc_bound() < 0) return -1;
    if (h->phase == hc_tricks || h->phase == hc_play_out) {
        long long mask = hc_mask_of(h);
        return mask < 0 ? -1 : popcount((uint32_t)mask);
    }
    if (h->fast && h->phase == hc_auction && IS_TUPLE(h->passes)) {
        int low, high, npass = hc_calls(h, &low, &high);
        return npass + high - low;
    }
    if (h->fast && h->phase == hc_trump) {
        int suits = hc_trump_suits(h);
        if (suits >= 0) return popcount((uint32_t)suits);
    }
    PyObject *count = PyObject_CallMethodNoArgs((PyObject *)h, s_legal_count);
    if (!count) return -1;
    Py_ssize_t n = PyLong_AsSsize_t(count);
    Py_DECREF(count);
    return n;
}

static PyObject *lc_item(LegalCore *v, Py_ssize_t index) {
    HandCore *h = lc_state(v);
    if (!h || hc_bound() < 0) return NULL;
    if (h->phase == hc_tricks || h->phase == hc_play_out) {
        long long wide = hc_mask_of(h);
        if (wide < 0) return NULL;
        uint32_t mask = (uint32_t)wide;
        if (index < 0 || index >= popcount(mask)) {
            PyErr_SetString(PyExc_IndexError, "legal action index out of range");
            return NULL;
        }
        while (index--) mask &= mask - 1;
        return Py_NewRef(PyTuple_GET_ITEM(hc_plays, lowest(mask)));
    }
    if (h->fast && h->phase == hc_auction && IS_TUPLE(h->passes) &&
        IS_TUPLE(h->bid_actions)) {
        int low, high, npass = hc_calls(h, &low, &high);
        if (high <= PyTuple_GET_SIZE(h->bid_actions)) {
            if (index >= 0 && index < npass) return Py_NewRef(PyTuple_GET_ITEM(h->passes, index));
            if (index >= npass && index < npass + high - low)
                return Py_NewRef(PyTuple_GET_ITEM(h->bid_actions, low + index - npass));
            PyErr_SetString(PyExc_IndexError, "legal action index out of range");
            return NULL;
        }
    }
    if (h->fast && h->phase == hc_trump) {
        int suits = hc_trump_suits(h);
        if (suits >= 0) {
            for (int suit = 0; suit < 4; suit++)
                if (suits >> suit & 1 && index-- == 0)
                    return Py_NewRef(PyTuple_GET_ITEM(hc_name_trump, suit));
            PyErr_SetString(PyExc_IndexError, "legal action index out of range");
            return NULL;
        }
    }
    if (index < 0) { /* Python has already added the length to a negative index */
        PyErr_SetString(PyExc_IndexError, "legal action index out of range");
        return NULL;
    }
    PyObject *i = PyLong_FromSsize_t(index);
    if (!i) return NULL;
    PyObject *item = PyObject_CallMethodOneArg((PyObject *)h, s_legal_item, i);
    Py_DECREF(i);
    return item;
}

static int lc_init(LegalCore *v, PyObject *args, PyObject *kwds) {
    PyObject *state;
    if (!PyArg_ParseTuple(args, "O:LegalActions", &state)) return -1;
    if (!PyObject_TypeCheck(state, &HandCoreType)) {
        PyErr_SetString(PyExc_TypeError, "the legal actions' view needs a hand state");
        return -1;
    }
    Py_XSETREF(v->state, Py_NewRef(state));
    return 0;
}

static int lc_traverse(LegalCore *v, visitproc visit, void *arg) {
    Py_VISIT(v->state);
    return 0;
}

static int lc_clear(LegalCore *v) {
    Py_CLEAR(v->state);
    return 0;
}

static void lc_dealloc(LegalCore *v) {
    PyObject_GC_UnTrack(v);
    lc_clear(v);
    Py_TYPE(v)->tp_free((PyObject *)v);
}

static PyMemberDef lc_members[] = {
    {"_state", T_OBJECT_EX, offsetof(LegalCore, state), 0, NULL}, {NULL}};

static PySequenceMethods lc_sequence = {
    .sq_length = (lenfunc)lc_len,
    .sq_item = (ssizeargfunc)lc_item,
};

static PyTypeObject LegalCoreType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._kernel.LegalCore",
    .tp_basicsize = sizeof(LegalCore),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_BASETYPE | Py_TPFLAGS_HAVE_GC,
    .tp_doc = "len and indexing of a hand's legal actions (engine/handcore.py).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)lc_init,
    .tp_dealloc = (destructor)lc_dealloc,
    .tp_traverse = (traverseproc)lc_traverse,
    .tp_clear = (inquiry)lc_clear,
    .tp_members = lc_members,
    .tp_as_sequence = &lc_sequence,
};

/* ------------------------------------------------------------ bind_hand */

static PyObject *k_bind_hand(PyObject *self, PyObject *args) {
    PyObject *error, *types, *plays, *cards, *trumps, *phases, *outcomes;
    if (!PyArg_ParseTuple(args, "OO!O!O!O!O!O!:bind_hand", &error, &PyTuple_Type, &types,
                          &PyTuple_Type, &plays, &PyTuple_Type, &cards, &PyTuple_Type, &trumps,
                          &PyTuple_Type, &phases, &PyTuple_Type, &outcomes))
        return NULL;
    if (!PyExceptionClass_Check(error)) {
        PyErr_SetString(PyExc_TypeError, "bind_hand: first the state error's class");
        return NULL;
    }
    if (PyTuple_GET_SIZE(types) != 6 || PyTuple_GET_SIZE(plays) != FACES ||
        PyTuple_GET_SIZE(cards) != FACES || PyTuple_GET_SIZE(trumps) != 4 ||
        PyTuple_GET_SIZE(phases) != 7 || PyTuple_GET_SIZE(outcomes) != 2) {
        PyErr_SetString(PyExc_ValueError,
                        "bind_hand: 6 action types (play, bid, pass, pass with help, give, "
                        "name trump), 24 plays, 24 cards, 4 trumps, 7 phases (auction, trump, "
                        "pass to declarer, pass back, tricks, play-out, over) and 2 outcomes "
                        "(made, passed out)");
        return NULL;
    }
    for (int i = 0; i < 6; i++)
        if (!PyType_Check(PyTuple_GET_ITEM(types, i))) {
            PyErr_SetString(PyExc_TypeError, "bind_hand: the action types are classes");
            return NULL;
        }
    PyObject **slots[] = {&hc_play_type, &hc_bid_type, &hc_pass_type, &hc_help_type,
                          &hc_give_type, &hc_trump_type};
    for (int i = 0; i < 6; i++) Py_XSETREF(*slots[i], Py_NewRef(PyTuple_GET_ITEM(types, i)));
    PyObject **stages[] = {&hc_auction, &hc_trump,   &hc_pass_to, &hc_pass_back,
                           &hc_tricks,  &hc_play_out, &hc_over};
    for (int i = 0; i < 7; i++) Py_XSETREF(*stages[i], Py_NewRef(PyTuple_GET_ITEM(phases, i)));
    Py_XSETREF(hc_state_error, Py_NewRef(error));
    Py_XSETREF(hc_plays, Py_NewRef(plays));
    Py_XSETREF(hc_cards, Py_NewRef(cards));
    Py_XSETREF(hc_name_trump, Py_NewRef(trumps));
    Py_XSETREF(hc_made, Py_NewRef(PyTuple_GET_ITEM(outcomes, 0)));
    Py_XSETREF(hc_passed_out, Py_NewRef(PyTuple_GET_ITEM(outcomes, 1)));
    Py_RETURN_NONE;
}

/* TrickTakingState._meld: every seat's meld total under `trump`, as a list. */
static PyObject *k_meld_totals(PyObject *self, PyObject *args) {
    PyObject *config, *hands;
    int trump;
    if (!PyArg_ParseTuple(args, "OO!i:meld_totals", &config, &PyList_Type, &hands, &trump))
        return NULL;
    if (trump < 0 || trump > 3) {
        PyErr_SetString(PyExc_ValueError, "a trump 0 to 3");
        return NULL;
    }
    Config *c = config_acquire(config);
    if (!c) return NULL;
    Py_ssize_t n = PyList_GET_SIZE(hands);
    PyObject *totals = PyList_New(n);
    for (Py_ssize_t s = 0; totals && s < n; s++) {
        int counts[FACES];
        uint8_t u[FACES];
        PyObject *total = NULL;
        if (read_ints(PyList_GET_ITEM(hands, s), counts, FACES, "counts") >= 0) {
            for (int f = 0; f < FACES; f++)
                u[f] = (uint8_t)(counts[f] < 0 ? 0 : counts[f] > 4 ? 4 : counts[f]);
            total = PyLong_FromLong(meld_total(u, trump, c));
        }
        if (!total) Py_CLEAR(totals);
        else PyList_SET_ITEM(totals, s, total);
    }
    config_release(config, c);
    return totals;
}

/* engine.trickstate.cards_of: the cards of a count vector, in face order. */
static PyObject *k_cards_of(PyObject *self, PyObject *counts) {
    int values[FACES];
    int n = read_ints(counts, values, FACES, "counts");
    if (n < 0 || hc_bound() < 0) return NULL;
    Py_ssize_t total = 0;
    for (int f = 0; f < n; f++) {
        if (values[f] < 0 || values[f] > 8) {
            PyErr_SetString(PyExc_ValueError, "a count is 0 to 8");
            return NULL;
        }
        total += values[f];
    }
    PyObject *cards = PyTuple_New(total);
    if (!cards) return NULL;
    Py_ssize_t i = 0;
    for (int f = 0; f < n; f++)
        for (int k = 0; k < values[f]; k++)
            PyTuple_SET_ITEM(cards, i++, Py_NewRef(PyTuple_GET_ITEM(hc_cards, f)));
    return cards;
}

/* engine.trickstate.mask_of: the faces a count vector holds, as bits. */
static PyObject *k_mask_of(PyObject *self, PyObject *counts) {
    int values[FACES];
    int n = read_ints(counts, values, FACES, "counts");
    if (n < 0) return NULL;
    uint32_t mask = 0;
    for (int f = 0; f < n; f++)
        if (values[f]) mask |= 1u << f;
    return PyLong_FromUnsignedLong(mask);
}

static int handcore_add(PyObject *module) {
    struct {
        PyObject **slot;
        const char *text;
    } names[] = {{&s_card, "card"},
                 {&s_cards, "cards"},
                 {&s_suit, "suit"},
                 {&s_after_trump, "_after_trump"},
                 {&s_meld, "_meld"},
                 {&s_apply_py, "_apply_py"},
                 {&s_finish, "_finish"},
                 {&s_end_auction, "_end_auction"},
                 {&s_after_trick, "_after_trick"},
                 {&s_legal_mask, "_legal_mask"},
                 {&s_legal_count, "_legal_count"},
                 {&s_legal_item, "_legal_item"},
                 {&s_new_view, "_new_view"}};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (!(*names[i].slot = PyUnicode_InternFromString(names[i].text))) return -1;
    if (PyType_Ready(&HandCoreType) < 0 || PyType_Ready(&LegalCoreType) < 0) return -1;
    if (PyModule_AddObjectRef(module, "HandCore", (PyObject *)&HandCoreType) < 0 ||
        PyModule_AddObjectRef(module, "LegalCore", (PyObject *)&LegalCoreType) < 0)
        return -1;
    return 0;
}
