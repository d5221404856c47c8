/* Optional compiled collection work of a climbing game's options (see recycle/interp/cardsets.py).
 *
 * Two things a BigTwo4 rollout asks at every turn, done here without a Python call per set:
 *
 *   sift(sets, pick, sign, score, attrs, op, bound)
 *       the sets whose highest (sign 1) or lowest (-1) card by point map `pick` scores,
 *       by point map `score`, OP `bound` ("can this set beat the last one"), in order.
 *       The pure `cardsets.sift` is the reference; both raise where a set is empty,
 *       holds anything but cards, or two of its cards tie (the caller then explores).
 *
 *   sift_into(out, head, sets, pick, sign, score, attrs, op, bound), leaves(out, head, items)
 *       a counted choice's leaves appended to its options list `out` with no list between:
 *       head + (set,) for each set sift keeps, head + (x,) for each of `items` (what
 *       `out.extend(zip(repeat(h0), ..., items))` appends); on an error nothing is appended;
 *       a list of sets or items is read as it was when the call started (`out` itself too).
 *
 *   pick(cards, pm, attrs, sign)
 *       the highest (1) or lowest (-1) card of a list by a point map; None for a tie (which
 *       draws), an empty list or anything but cards: `Evaluator.extreme_of` answers those.
 *
 *   HandSets(slow, PointMap, most)(pm, k, cards)   (in _cardsets_sets.c)
 *       `(tuples k cards using pm)`: the sets of k cards of one score, scores in order,
 *       each score's as itertools.combinations makes them, as `fast.tuple_sets`' closure
 *       `slow` does; where the cards are not all scored yet, are not plain cards, or make
 *       more than `most` sets, `slow` answers (and scores them, or raises its error).
 *
 *   Memo(question)(pm, attrs)   (in _cardsets_memo.c)
 *       question(pm, attrs) about a point map (immutable), asked once per map and number of
 *       cards: `counting.distinct_scores`, asked at every counted position.
 *
 * Scores are read from the map's `_cache` dict, else asked of `map.score(card, attrs)`
 * (which fills it), so every value is the Python one; comparisons are Python's.
 */
#include "_cardsets.h"

static PyObject *str_cache, *str_score;

/* New reference to the score of `card` by map `pm` (its cache `cache`), or NULL (error set). */
static PyObject *
score_of(PyObject *pm, PyObject *cache, PyObject *card, PyObject *attrs)
{
    PyObject *s = PyDict_GetItemWithError(cache, card);
    if (s != NULL) {
        Py_INCREF(s);
        return s;
    }
    if (PyErr_Occurred())
        return NULL;
    return PyObject_CallMethodObjArgs(pm, str_score, card, attrs, NULL);
}

PyObject *
cardsets_cache_of(PyObject *pm)
{
    PyObject *cache = PyObject_GetAttr(pm, str_cache);
    if (cache != NULL && !PyDict_CheckExact(cache)) {
        Py_DECREF(cache);
        PyErr_SetString(PyExc_TypeError, "a point map's scores are a dict");
        return NULL;
    }
    return cache;
}

/* New reference to the extreme card of list `set` (all exact ints), or NULL. */
static PyObject *
extreme(PyObject *set, PyObject *pm, PyObject *cache, PyObject *attrs, int better)
{
    PyObject *best = NULL, *best_score = NULL;  /* (both held: scoring may run Python code) */
    int tied = 0;
    if (PyList_GET_SIZE(set) == 0) {
        PyErr_SetString(PyExc_ValueError, "the max or min of an empty set");
        return NULL;
    }
    for (Py_ssize_t i = 0; i < PyList_GET_SIZE(set); i++) {
        PyObject *c = PyList_GET_ITEM(set, i);
        if (!PyLong_CheckExact(c)) {
            PyErr_SetString(PyExc_TypeError, "a set holds something other than cards");
            goto fail;
        }
        PyObject *s = score_of(pm, cache, c, attrs);
        if (s == NULL)
            goto fail;
        if (best == NULL) {
            Py_INCREF(c);
            best = c, best_score = s;
            continue;
        }
        int r = PyObject_RichCompareBool(s, best_score, better);
        int eq = r == 0 ? PyObject_RichCompareBool(s, best_score, Py_EQ) : 0;
        if (r < 0 || eq < 0) {
            Py_DECREF(s);
            goto fail;
        }
        if (r) {
            Py_INCREF(c);
            Py_SETREF(best, c);
            Py_SETREF(best_score, s);
            tied = 0;
        } else {
            tied |= eq;
            Py_DECREF(s);
        }
    }
    Py_DECREF(best_score);
    if (tied) {
        Py_DECREF(best);
        PyErr_SetString(PyExc_ValueError, "two cards of a set tie");
        return NULL;
    }
    return best;
fail:
    Py_XDECREF(best);
    Py_XDECREF(best_score);
    return NULL;
}

/* Append the tuple head + (x,) to list `out`: 0, or -1 (error set). */
static int
append_leaf(PyObject *out, PyObject *head, PyObject *x)
{
    Py_ssize_t n = PyTuple_GET_SIZE(head);
    PyObject *leaf = PyTuple_New(n + 1);
    if (leaf == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *h = PyTuple_GET_ITEM(head, i);
        Py_INCREF(h);
        PyTuple_SET_ITEM(leaf, i, h);
    }
    Py_INCREF(x);
    PyTuple_SET_ITEM(leaf, n, x);
    int r = PyList_Append(out, leaf);
    Py_DECREF(leaf);
    return r;
}

/* Append to `out` each set of `sets` whose extreme card's score OP `bound`: the set itself (`head`
 * NULL) or the tuple head + (set,) (a counted option's leaf). 0, or -1 (error set). */
static int
sift_append(PyObject *out, PyObject *head, PyObject *const *args)
{
    PyObject *sets = args[0], *pick = args[1], *score = args[3], *attrs = args[4], *bound = args[6];
    long sign = PyLong_AsLong(args[2]), op = PyLong_AsLong(args[5]);
    if (PyErr_Occurred())
        return -1;
    if (!PyList_CheckExact(sets)) {
        PyErr_SetString(PyExc_TypeError, "sift: the sets are a list");
        return -1;
    }
    if (op < Py_LT || op > Py_GE || (sign != 1 && sign != -1)) {
        PyErr_SetString(PyExc_ValueError, "sift: an operator 0..5 and a sign of 1 or -1");
        return -1;
    }
    int result = -1;
    PyObject *pick_cache = cardsets_cache_of(pick), *score_cache = NULL;
    if (pick_cache == NULL || (score_cache = cardsets_cache_of(score)) == NULL)
        goto done;
    /* (the sets as the call starts: `out` itself, appended to, is not read past them, as the pure one) */
    Py_ssize_t count = PyList_GET_SIZE(sets);
    for (Py_ssize_t i = 0; i < count && i < PyList_GET_SIZE(sets); i++) {
        PyObject *set = PyList_GET_ITEM(sets, i);
        if (!PyList_CheckExact(set)) {
            PyErr_SetString(PyExc_TypeError, "sift: a set is a list of cards");
            goto done;
        }
        Py_INCREF(set);  /* (scoring may run Python code) */
        PyObject *card = extreme(set, pick, pick_cache, attrs, sign > 0 ? Py_GT : Py_LT);
        PyObject *s = card == NULL ? NULL : score_of(score, score_cache, card, attrs);
        Py_XDECREF(card);
        int keep = s == NULL ? -1 : PyObject_RichCompareBool(s, bound, (int)op);
        Py_XDECREF(s);
        if (keep < 0 || (keep && (head == NULL ? PyList_Append(out, set) : append_leaf(out, head, set)) < 0)) {
            Py_DECREF(set);
            goto done;
        }
        Py_DECREF(set);
    }
    result = 0;
done:
    Py_XDECREF(pick_cache);
    Py_XDECREF(score_cache);
    return result;
}

static PyObject *
sift(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 7) {
        PyErr_SetString(PyExc_TypeError, "sift(sets, pick, sign, score, attrs, op, bound)");
        return NULL;
    }
    PyObject *out = PyList_New(0);
    if (out != NULL && sift_append(out, NULL, args) < 0)
        Py_CLEAR(out);
    return out;
}

/* A leaves call's arguments: `want` of them (else `usage` raised), `out` a list, `head` a tuple;
 * 0 and the length of `out` before in *start (on an error what was appended is taken out
 * again), or -1 (error set). */
static int
leaves_args(PyObject *const *args, Py_ssize_t nargs, Py_ssize_t want, const char *usage, Py_ssize_t *start)
{
    if (nargs != want) {
        PyErr_SetString(PyExc_TypeError, usage);
        return -1;
    }
    if (!PyList_Check(args[0]) || !PyTuple_CheckExact(args[1])) {
        PyErr_SetString(PyExc_TypeError, "the leaves go to a list, their head is a tuple");
        return -1;
    }
    *start = PyList_GET_SIZE(args[0]);
    return 0;
}

static PyObject *
leaves_done(PyObject *out, Py_ssize_t start, int failed)
{
    if (failed) {
        if (PyList_GET_SIZE(out) > start) {  /* (keeping the error raised) */
            PyObject *type, *value, *tb;
            PyErr_Fetch(&type, &value, &tb);
            PyList_SetSlice(out, start, PyList_GET_SIZE(out), NULL);
            PyErr_Restore(type, value, tb);
        }
        return NULL;
    }
    Py_RETURN_NONE;
}

static PyObject *
sift_into(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t start;
    if (leaves_args(args, nargs, 9, "sift_into(out, head, sets, pick, sign, score, attrs, op, bound)", &start) < 0)
        return NULL;
    return leaves_done(args[0], start, sift_append(args[0], args[1], args + 2) < 0);
}

static PyObject *
leaves(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    Py_ssize_t start;
    if (leaves_args(args, nargs, 3, "leaves(out, head, items)", &start) < 0)
        return NULL;
    PyObject *out = args[0], *head = args[1];
    int failed = 0;
    if (PyList_CheckExact(args[2])) {  /* (its items as the call starts, as the pure one: `out` itself too) */
        PyObject *items = args[2];
        Py_ssize_t count = PyList_GET_SIZE(items);
        for (Py_ssize_t i = 0; !failed && i < count && i < PyList_GET_SIZE(items); i++) {
            PyObject *x = PyList_GET_ITEM(items, i);
            Py_INCREF(x);
            failed = append_leaf(out, head, x) < 0;
            Py_DECREF(x);
        }
        return leaves_done(out, start, failed);
    }
    PyObject *it = PyObject_GetIter(args[2]), *x;
    if (it == NULL)
        return NULL;
    while (!failed && (x = PyIter_Next(it)) != NULL) {
        failed = append_leaf(out, head, x) < 0;
        Py_DECREF(x);
    }
    Py_DECREF(it);
    return leaves_done(out, start, failed || PyErr_Occurred());
}

static PyObject *
pick(PyObject *module, PyObject *const *args, Py_ssize_t nargs)
{
    if (nargs != 4) {
        PyErr_SetString(PyExc_TypeError, "pick(cards, pm, attrs, sign)");
        return NULL;
    }
    PyObject *cards = args[0], *pm = args[1], *attrs = args[2];
    long sign = PyLong_AsLong(args[3]);
    if (sign == -1 && PyErr_Occurred())
        return NULL;
    if (!PyList_CheckExact(cards) || PyList_GET_SIZE(cards) == 0)
        Py_RETURN_NONE;
    PyObject *cache = cardsets_cache_of(pm), *card = NULL;
    if (cache != NULL) {
        Py_INCREF(cards);
        card = extreme(cards, pm, cache, attrs, sign > 0 ? Py_GT : Py_LT);
        Py_DECREF(cards);
        Py_DECREF(cache);
    }
    if (card == NULL) {  /* a tie (drawn), not cards, an error: the caller's Python answers */
        PyErr_Clear();
        Py_RETURN_NONE;
    }
    return card;
}

static PyMethodDef methods[] = {
    {"pick", (PyCFunction)(void (*)(void))pick, METH_FASTCALL,
     "pick(cards, pm, attrs, sign) -> the highest (1) or lowest (-1) card by pm, None where that is a tie or not plain"},
    {"sift", (PyCFunction)(void (*)(void))sift, METH_FASTCALL,
     "sift(sets, pick, sign, score, attrs, op, bound) -> the sets whose extreme card's score OP bound"},
    {"sift_into", (PyCFunction)(void (*)(void))sift_into, METH_FASTCALL,
     "sift_into(out, head, sets, pick, sign, score, attrs, op, bound): head + (set,) appended to out for each set sift keeps"},
    {"leaves", (PyCFunction)(void (*)(void))leaves, METH_FASTCALL,
     "leaves(out, head, items): head + (x,) appended to out for each x of items"},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "_cardsets", "Compiled collection work of climbing games' options.", -1, methods,
};

PyMODINIT_FUNC
PyInit__cardsets(void)
{
    str_cache = PyUnicode_InternFromString("_cache");
    str_score = PyUnicode_InternFromString("score");
    if (str_cache == NULL || str_score == NULL || PyType_Ready(&CardsetsHandSetsType) < 0 || PyType_Ready(&CardsetsMemoType) < 0)
        return NULL;
    PyObject *m = PyModule_Create(&module);
    if (m == NULL)
        return NULL;
    Py_INCREF(&CardsetsHandSetsType);
    Py_INCREF(&CardsetsMemoType);
    if (PyModule_AddObject(m, "HandSets", (PyObject *)&CardsetsHandSetsType) < 0
            || PyModule_AddObject(m, "Memo", (PyObject *)&CardsetsMemoType) < 0) {
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
