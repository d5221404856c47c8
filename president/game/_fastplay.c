/* The compiled fast path of President's random play (see president/fastplay.py).
 *
 * `play_round(state, draw, bits, rules)` plays uniformly random legal plays on a
 * `PresidentState` in the play phase until its round ends, exactly as the pure
 * Python loop of `PresidentState.random_playout` does: the same legal plays in the
 * same order (`legality.legal_plays`), the same index drawn from the same Python
 * generator (`int(draw() * n)`, or CPython's `_randbelow` loop over `getrandbits`
 * when `bits` is 1), the same rules of a trick (`PresidentState._play`) and the
 * same history. It reads the state's fields once, plays on C arrays, and writes
 * every field back; the round's end (scores, the next deal) stays in Python.
 *
 * `legal(state, rules)` lists the legal plays of the player to move, and `deal`
 * places a determinization's unknown cards (`knowledge.Dealer.place_cards`).
 * The rules of a trick themselves are in `_fastplay_rules.c`.
 *
 * Only tables where suits do not matter and one deck is used (a hand fits in 64
 * bits); `fastplay.rules_of` says which, and everything else stays in Python.
 */
#include "_fastplay.h"

static PyObject *A_masks, *A_counts, *A_sizes, *A_played, *A_played_counts, *A_upcards, *A_last_player,
    *A_declined, *A_out, *A_places, *A_best_free, *A_worst_free, *A_reversed, *A_current, *A_history,
    *A_num_players, *A_value, *A_count;

/* The index of a uniformly drawn play among n, as the pure loop draws it. */
static Py_ssize_t draw_index(PyObject *draw, int bits, int n) {
    if (!bits) {
        PyObject *x = PyObject_CallNoArgs(draw);
        if (!x) return -1;
        double f = PyFloat_AsDouble(x);
        Py_DECREF(x);
        if (f == -1.0 && PyErr_Occurred()) return -1;
        return (Py_ssize_t)(f * n);
    }
    int k = 0;
    while ((n >> k) != 0) k++;
    PyObject *width = PyLong_FromLong(k);
    if (!width) return -1;
    for (;;) {
        PyObject *x = PyObject_CallOneArg(draw, width);
        if (!x) { Py_DECREF(width); return -1; }
        long i = PyLong_AsLong(x);
        Py_DECREF(x);
        if (i == -1 && PyErr_Occurred()) { Py_DECREF(width); return -1; }
        if (i < n) { Py_DECREF(width); return i; }
    }
}

/* ---- reading and writing the Python state -------------------------------------- */
static int get_int(PyObject *obj, PyObject *name, int *out) {
    PyObject *v = PyObject_GetAttr(obj, name);
    if (!v) return -1;
    long x = PyLong_AsLong(v);  /* bools are ints */
    Py_DECREF(v);
    if (x == -1 && PyErr_Occurred()) return -1;
    *out = (int)x;
    return 0;
}

static int read_ints(PyObject *list, int *out, int n) {
    if (!PyList_Check(list) || PyList_GET_SIZE(list) < n) {
        PyErr_SetString(PyExc_TypeError, "fastplay: expected a list of ints");
        return -1;
    }
    for (int i = 0; i < n; i++) {
        long x = PyLong_AsLong(PyList_GET_ITEM(list, i));
        if (x == -1 && PyErr_Occurred()) return -1;
        out[i] = (int)x;
    }
    return 0;
}

static int write_ints(PyObject *list, const int *values, int n) {
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(values[i]);
        if (!x) return -1;
        PyList_SetItem(list, i, x);  /* steals x */
    }
    return 0;
}

static int set_int(PyObject *obj, PyObject *name, long value) {
    PyObject *x = PyLong_FromLong(value);
    if (!x) return -1;
    int rc = PyObject_SetAttr(obj, name, x);
    Py_DECREF(x);
    return rc;
}

void fp_drop_lists(Lists *l) {
    Py_XDECREF(l->masks); Py_XDECREF(l->counts); Py_XDECREF(l->sizes);
    Py_XDECREF(l->played_counts); Py_XDECREF(l->places); Py_XDECREF(l->history);
}

int fp_read_state(PyObject *s, Round *g, Lists *l) {
    if (get_int(s, A_num_players, &g->n) < 0) return -1;
    if (g->n < 1 || g->n > MAXP) { PyErr_SetString(PyExc_ValueError, "fastplay: 1 to 8 players"); return -1; }
    if (!(l->masks = PyObject_GetAttr(s, A_masks)) || !(l->counts = PyObject_GetAttr(s, A_counts))
        || !(l->sizes = PyObject_GetAttr(s, A_sizes)) || !(l->played_counts = PyObject_GetAttr(s, A_played_counts))
        || !(l->places = PyObject_GetAttr(s, A_places)) || !(l->history = PyObject_GetAttr(s, A_history)))
        return -1;
    if (!PyList_Check(l->masks) || !PyList_Check(l->counts) || !PyList_Check(l->history)
        || PyList_GET_SIZE(l->masks) < g->n || PyList_GET_SIZE(l->counts) < g->n) {
        PyErr_SetString(PyExc_TypeError, "fastplay: not a PresidentState");
        return -1;
    }
    for (int p = 0; p < g->n; p++) {
        g->masks[p] = PyLong_AsUnsignedLongLong(PyList_GET_ITEM(l->masks, p));
        if (g->masks[p] == (uint64_t)-1 && PyErr_Occurred()) return -1;
        if (read_ints(PyList_GET_ITEM(l->counts, p), g->counts[p], 17) < 0) return -1;
    }
    if (read_ints(l->sizes, g->sizes, g->n) < 0 || read_ints(l->places, g->places, g->n) < 0
        || read_ints(l->played_counts, g->played_counts, 17) < 0)
        return -1;
    PyObject *played = PyObject_GetAttr(s, A_played);
    if (!played) return -1;
    g->played = PyLong_AsUnsignedLongLong(played);
    Py_DECREF(played);
    if (g->played == (uint64_t)-1 && PyErr_Occurred()) return -1;
    if (get_int(s, A_last_player, &g->last_player) < 0 || get_int(s, A_declined, &g->declined) < 0
        || get_int(s, A_out, &g->out) < 0 || get_int(s, A_best_free, &g->best_free) < 0
        || get_int(s, A_worst_free, &g->worst_free) < 0 || get_int(s, A_reversed, &g->reversed) < 0
        || get_int(s, A_current, &g->current) < 0)
        return -1;
    PyObject *up = PyObject_GetAttr(s, A_upcards);
    if (!up) return -1;
    g->up_obj = up;  /* the state keeps it alive while we play */
    Py_DECREF(up);
    g->up_count = g->up_value = 0;
    if (up != Py_None && (get_int(up, A_count, &g->up_count) < 0 || get_int(up, A_value, &g->up_value) < 0))
        return -1;
    return fp_check_round(g);
}

int fp_write_state(PyObject *s, const Round *g, const Lists *l) {
    for (int p = 0; p < g->n; p++) {
        PyObject *m = PyLong_FromUnsignedLongLong(g->masks[p]);
        if (!m) return -1;
        PyList_SetItem(l->masks, p, m);
        if (write_ints(PyList_GET_ITEM(l->counts, p), g->counts[p], 17) < 0) return -1;
    }
    if (write_ints(l->sizes, g->sizes, g->n) < 0 || write_ints(l->places, g->places, g->n) < 0
        || write_ints(l->played_counts, g->played_counts, 17) < 0)
        return -1;
    PyObject *played = PyLong_FromUnsignedLongLong(g->played);
    if (!played) return -1;
    int rc = PyObject_SetAttr(s, A_played, played);
    Py_DECREF(played);
    if (rc < 0 || PyObject_SetAttr(s, A_upcards, g->up_obj) < 0
        || set_int(s, A_last_player, g->last_player) < 0 || set_int(s, A_declined, g->declined) < 0
        || set_int(s, A_out, g->out) < 0 || set_int(s, A_best_free, g->best_free) < 0
        || set_int(s, A_worst_free, g->worst_free) < 0 || set_int(s, A_current, g->current) < 0
        || PyObject_SetAttr(s, A_reversed, g->reversed ? Py_True : Py_False) < 0)
        return -1;
    return 0;
}

static PyObject *play_round(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *state, *draw;
    int bits;
    Rules r;
    if (!PyArg_ParseTuple(args, "OOp(ppipppp)", &state, &draw, &bits, &r.wild, &r.pass_locks, &r.equal_value,
                          &r.twos_end, &r.revolution, &r.eight_cut, &r.no_two_finish))
        return NULL;
    if (!PASS_PLAY) { PyErr_SetString(PyExc_RuntimeError, "fastplay: init() was not called"); return NULL; }
    Round g;
    Lists l = {0};
    long steps = 0;
    int ended = 0, failed = 0;
    if (fp_read_state(state, &g, &l) < 0) { fp_drop_lists(&l); return NULL; }
    Code legal_now[MAXLEGAL];
    while (!ended) {
        int k = fp_legal(&g, &r, legal_now);
        Py_ssize_t i = draw_index(draw, bits, k);
        if (i < 0) { failed = 1; break; }
        int rc = fp_play_chosen(&g, &r, legal_now[i], l.history);
        if (rc < 0) { failed = 1; break; }
        steps++;
        ended = rc;
    }
    return fp_loop_result(state, &g, &l, failed, steps, ended);
}

int fp_play_chosen(Round *g, const Rules *r, Code c, PyObject *history) {
    if (c.count && !PLAYS[c.value][c.count][c.jokers]) {
        PyErr_SetString(PyExc_RuntimeError, "fastplay: a play outside the interned table");
        return -1;
    }
    return fp_play(g, r, c, history);
}

PyObject *fp_loop_result(PyObject *state, const Round *g, Lists *l, int failed, long steps, int status) {
    PyObject *type, *value, *trace;
    PyErr_Fetch(&type, &value, &trace);
    int wrote = fp_write_state(state, g, l);
    fp_drop_lists(l);
    if (type) { PyErr_Restore(type, value, trace); return NULL; }
    if (wrote < 0 || failed) return NULL;
    return Py_BuildValue("(li)", steps, status);
}

/* legal(state, rules) -> list: `legality.legal_plays` of the player to move, as interned plays. */
static PyObject *legal_plays(PyObject *self, PyObject *args) {
    PyObject *state;
    Rules r;
    (void)self;
    if (!PyArg_ParseTuple(args, "O(ppipppp)", &state, &r.wild, &r.pass_locks, &r.equal_value, &r.twos_end,
                          &r.revolution, &r.eight_cut, &r.no_two_finish))
        return NULL;
    if (!PASS_PLAY) { PyErr_SetString(PyExc_RuntimeError, "fastplay: init() was not called"); return NULL; }
    Round g;
    int p;
    if (get_int(state, A_current, &p) < 0 || get_int(state, A_reversed, &g.reversed) < 0) return NULL;
    g.current = 0;
    PyObject *counts = PyObject_GetAttr(state, A_counts);
    if (!counts) return NULL;
    int bad = !PyList_Check(counts) || p < 0 || p >= PyList_GET_SIZE(counts)
              || read_ints(PyList_GET_ITEM(counts, p), g.counts[0], 17) < 0;
    Py_DECREF(counts);
    if (bad) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "fastplay: not a PresidentState");
        return NULL;
    }
    if (r.no_two_finish) {
        PyObject *sizes = PyObject_GetAttr(state, A_sizes);
        if (!sizes) return NULL;
        bad = !PyList_Check(sizes) || p >= PyList_GET_SIZE(sizes);
        g.sizes[0] = bad ? 0 : (int)PyLong_AsLong(PyList_GET_ITEM(sizes, p));
        Py_DECREF(sizes);
        if (bad || PyErr_Occurred()) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "fastplay: not a PresidentState");
            return NULL;
        }
    }
    PyObject *up = PyObject_GetAttr(state, A_upcards);
    if (!up) return NULL;
    g.up_count = g.up_value = 0;
    if (up != Py_None && (get_int(up, A_count, &g.up_count) < 0 || get_int(up, A_value, &g.up_value) < 0)) {
        Py_DECREF(up);
        return NULL;
    }
    Py_DECREF(up);
    if (fp_check_trick(&g) < 0) return NULL;
    Code codes[MAXLEGAL];
    int k = fp_legal(&g, &r, codes);
    PyObject *out = PyList_New(k);
    if (!out) return NULL;
    for (int i = 0; i < k; i++) {
        Code c = codes[i];
        PyObject *play = c.count ? PLAYS[c.value][c.count][c.jokers] : PASS_PLAY;
        if (!play) {
            Py_DECREF(out);
            PyErr_SetString(PyExc_RuntimeError, "fastplay: a play outside the interned table");
            return NULL;
        }
        Py_INCREF(play);
        PyList_SET_ITEM(out, i, play);
    }
    return out;
}

/* deal(groups, masks, counts, draw) -> None, or the bit of a card nobody may hold.
 * `knowledge.Dealer.deal`'s loop: for each (value, card bits, newly admitted free places) group, highest
 * first, every card goes to a uniformly drawn free place (index `int(draw() * free)`, swapped out). */
static PyObject *deal(PyObject *self, PyObject *args) {
    PyObject *groups, *masks, *counts, *draw;
    (void)self;
    if (!PyArg_ParseTuple(args, "O!O!O!O", &PyList_Type, &groups, &PyList_Type, &masks, &PyList_Type, &counts, &draw))
        return NULL;
    enum { MAXFREE = 512 };
    long free_[MAXFREE];
    Py_ssize_t nfree = 0, ngroups = PyList_GET_SIZE(groups), nmasks = PyList_GET_SIZE(masks);
    for (Py_ssize_t g = 0; g < ngroups; g++) {
        PyObject *group = PyList_GET_ITEM(groups, g), *value, *bits, *newly;
        if (!PyArg_ParseTuple(group, "OO!O!", &value, &PyList_Type, &bits, &PyList_Type, &newly)) return NULL;
        long v = PyLong_AsLong(value);
        if (v == -1 && PyErr_Occurred()) return NULL;
        if (v < 0 || v > 16) { PyErr_SetString(PyExc_ValueError, "deal: a value out of 0..16"); return NULL; }
        for (Py_ssize_t i = 0; i < PyList_GET_SIZE(newly); i++) {
            long p = PyLong_AsLong(PyList_GET_ITEM(newly, i));
            if (p == -1 && PyErr_Occurred()) return NULL;
            if (nfree >= MAXFREE || p < 0 || p >= nmasks) {
                PyErr_SetString(PyExc_ValueError, "deal: a free place out of range");
                return NULL;
            }
            free_[nfree++] = p;
        }
        for (Py_ssize_t b = 0; b < PyList_GET_SIZE(bits); b++) {
            PyObject *bit = PyList_GET_ITEM(bits, b);
            if (!nfree) { Py_INCREF(bit); return bit; }
            PyObject *x = PyObject_CallNoArgs(draw);
            if (!x) return NULL;
            double f = PyFloat_AsDouble(x);
            Py_DECREF(x);
            if (f == -1.0 && PyErr_Occurred()) return NULL;
            Py_ssize_t i = (Py_ssize_t)(f * nfree);
            long p = free_[i];
            free_[i] = free_[--nfree];
            PyObject *mask = PyNumber_Or(PyList_GET_ITEM(masks, p), bit);
            if (!mask) return NULL;
            PyList_SetItem(masks, p, mask);
            PyObject *row = PyList_GET_ITEM(counts, p);
            if (!PyList_Check(row) || PyList_GET_SIZE(row) <= v) {
                PyErr_SetString(PyExc_TypeError, "deal: counts rows are lists of 17");
                return NULL;
            }
            long held = PyLong_AsLong(PyList_GET_ITEM(row, v));
            if (held == -1 && PyErr_Occurred()) return NULL;
            PyObject *more = PyLong_FromLong(held + 1);
            if (!more) return NULL;
            PyList_SetItem(row, v, more);
        }
    }
    Py_RETURN_NONE;
}

/* shuffle(getrandbits, list) -> None: `random.Random.shuffle` of the generator whose `getrandbits` this is,
 * in place, with the same draws (CPython's `_randbelow` loop over `getrandbits` for each index). */
static PyObject *shuffle(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *bits, *list;
    if (!PyArg_ParseTuple(args, "OO!", &bits, &PyList_Type, &list)) return NULL;
    for (Py_ssize_t i = PyList_GET_SIZE(list) - 1; i > 0; i--) {
        if (i + 1 > INT_MAX) { PyErr_SetString(PyExc_ValueError, "shuffle: too long a list"); return NULL; }
        Py_ssize_t j = draw_index(bits, 1, (int)(i + 1));
        if (j < 0) return NULL;
        if (i >= PyList_GET_SIZE(list)) { PyErr_SetString(PyExc_RuntimeError, "shuffle: the list changed"); return NULL; }
        PyObject *x = PyList_GET_ITEM(list, i);
        PyList_SET_ITEM(list, i, PyList_GET_ITEM(list, j));
        PyList_SET_ITEM(list, j, x);
    }
    Py_RETURN_NONE;
}

/* init(plays, pass): plays[value][count][jokers] is a Play or None (nested sequences). */
static PyObject *init(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *table, *pass;
    if (!PyArg_ParseTuple(args, "OO", &table, &pass)) return NULL;
    for (int v = 0; v < 17; v++)
        for (int k = 0; k < MAXK; k++)
            for (int j = 0; j < MAXK; j++) {
                PyObject *row = PySequence_GetItem(table, v);
                if (!row) return NULL;
                PyObject *col = PySequence_GetItem(row, k);
                Py_DECREF(row);
                if (!col) return NULL;
                PyObject *item = PySequence_GetItem(col, j);
                Py_DECREF(col);
                if (!item) return NULL;
                Py_XSETREF(PLAYS[v][k][j], item == Py_None ? NULL : item);
                if (item == Py_None) Py_DECREF(item);
            }
    Py_INCREF(pass);
    Py_XSETREF(PASS_PLAY, pass);
    Py_RETURN_NONE;
}

static PyMethodDef METHODS[] = {
    {"play_round", play_round, METH_VARARGS,
     "play_round(state, draw, bits, rules) -> (moves, round ended): random plays to the round's end."},
    {"play_rules_round", fp_play_rules_round, METH_VARARGS,
     "play_rules_round(state, rules, programs, forced, prev, table, odds, bits, orders) -> (moves, status)."},
    {"legal", legal_plays, METH_VARARGS, "legal(state, rules) -> the legal plays of the player to move."},
    {"deal", deal, METH_VARARGS,
     "deal(groups, masks, counts, draw) -> None, or the bit of a card nobody may hold (Dealer.deal)."},
    {"shuffle", shuffle, METH_VARARGS, "shuffle(getrandbits, list): Random.shuffle, the same draws."},
    {"init", init, METH_VARARGS, "init(plays, pass): the interned plays, [value][count][jokers]."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_fastplay", "President's compiled random play.", -1,
                                    METHODS};

#define INTERN(var, text) if (!(var = PyUnicode_InternFromString(text))) return NULL

PyMODINIT_FUNC PyInit__fastplay(void) {
    INTERN(A_masks, "masks"); INTERN(A_counts, "counts"); INTERN(A_sizes, "sizes"); INTERN(A_played, "played");
    INTERN(A_played_counts, "played_counts"); INTERN(A_upcards, "upcards"); INTERN(A_last_player, "last_player");
    INTERN(A_declined, "declined"); INTERN(A_out, "out"); INTERN(A_places, "places");
    INTERN(A_best_free, "best_free"); INTERN(A_worst_free, "worst_free"); INTERN(A_reversed, "reversed");
    INTERN(A_current, "current"); INTERN(A_history, "history"); INTERN(A_num_players, "num_players");
    INTERN(A_value, "value"); INTERN(A_count, "count");
    for (int p = 0; p < MAXP; p++)
        if (!(SEATS[p] = PyLong_FromLong(p))) return NULL;
    return PyModule_Create(&MODULE);
}
