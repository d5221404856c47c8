/* FollowOdds' deal counting in compiled code: `personalities.odds._sum` and `_splits`, term for term.
 *
 * allocations(hands, groups, sums, inverse_factorials) -> (total, computed): the sum over the ways to
 * spread each group's cards among the hands (each hand `free * 16 + limit`, sorted) of the weights,
 * exactly the floats of the Python recursion: the same products and sums in the same order (the
 * inverse factorials are Python's own floats, passed in). It reads and fills the same memo
 * (`sums[groups][hands]`, dicts of tuples) and returns how many sums it computed, for the memo's bound.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

#define UNIT 16
#define MAXH 16
#define MAXG 32
#define NINV 128

typedef struct {
    PyObject *sums;
    PyObject *suffix[MAXG + 1];  /* groups[i:] as tuples */
    long groups[MAXG];
    int ngroups;
    double inv[NINV];
    long computed;
} Ctx;

static PyObject *hands_tuple(const long *hands, int n) {
    PyObject *t = PyTuple_New(n);
    if (!t) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *x = PyLong_FromLong(hands[i]);
        if (!x) { Py_DECREF(t); return NULL; }
        PyTuple_SET_ITEM(t, i, x);
    }
    return t;
}

static PyObject *table_of(Ctx *c, int depth) {  /* `_Memo.sums_of(groups[depth:])` */
    PyObject *table = PyDict_GetItemWithError(c->sums, c->suffix[depth]);
    if (table) return table;
    if (PyErr_Occurred()) return NULL;
    table = PyDict_New();
    if (!table) return NULL;
    int rc = PyDict_SetItem(c->sums, c->suffix[depth], table);
    Py_DECREF(table);  /* the memo holds it */
    return rc < 0 ? NULL : table;
}

static int sum(Ctx *c, const long *hands, int n, int depth, double *out);

/* The value of (hands, groups[depth:]) from the memo, computed and stored if missing. */
static int spread(Ctx *c, PyObject *below, const long *hands, int n, int depth, double *out) {
    PyObject *key = hands_tuple(hands, n);
    if (!key) return -1;
    PyObject *found = PyDict_GetItemWithError(below, key);
    if (found) { Py_DECREF(key); *out = PyFloat_AsDouble(found); return PyErr_Occurred() ? -1 : 0; }
    if (PyErr_Occurred() || sum(c, hands, n, depth, out) < 0) { Py_DECREF(key); return -1; }
    PyObject *value = PyFloat_FromDouble(*out);
    int rc = value ? PyDict_SetItem(below, key, value) : -1;
    Py_XDECREF(value);
    Py_DECREF(key);
    return rc;
}

static int cmp_long(const void *a, const void *b) {
    long x = *(const long *)a, y = *(const long *)b;
    return (x > y) - (x < y);
}

/* Every way to give `cards` cards to hands i.. (part i at most caps[i]), in lexicographic order
 * (`_parts`), each adding weight * spread(sorted hands left) to `total` (`_sum`'s loop). */
static int compose(Ctx *c, PyObject *below, const long *hands, int n, int depth, const long *caps, int i, long cards,
                   long *parts, double *total) {
    if (i == n - 1) {
        if (cards > caps[i]) return 0;
        parts[i] = cards;
        double weight = 1.0;
        long left[MAXH];
        for (int h = 0; h < n; h++) {
            weight = h ? weight * c->inv[parts[h]] : c->inv[parts[h]];
            left[h] = hands[h] - parts[h] * UNIT;
        }
        qsort(left, n, sizeof(long), cmp_long);
        double value;
        if (spread(c, below, left, n, depth + 1, &value) < 0) return -1;
        *total += weight * value;
        return 0;
    }
    for (long a = 0; a <= (cards < caps[i] ? cards : caps[i]); a++) {
        parts[i] = a;
        if (compose(c, below, hands, n, depth, caps, i + 1, cards - a, parts, total) < 0) return -1;
    }
    return 0;
}

static int sum(Ctx *c, const long *hands, int n, int depth, double *out) {
    c->computed++;
    if (depth == c->ngroups) {
        double p = 1.0;
        for (int h = 0; h < n; h++) {
            long free = hands[h] / UNIT;
            if (free < 0 || free >= NINV) { PyErr_SetString(PyExc_ValueError, "odds: a hand out of range"); return -1; }
            p = h ? p * c->inv[free] : c->inv[free];
        }
        *out = p;
        return 0;
    }
    PyObject *below = table_of(c, depth + 1);
    if (!below) return -1;
    long caps[MAXH], parts[MAXH];
    for (int h = 0; h < n; h++) {
        long free = hands[h] / UNIT, limit = hands[h] % UNIT;
        caps[h] = free < limit ? free : limit;
    }
    double total = 0.0;
    if (n && compose(c, below, hands, n, depth, caps, 0, c->groups[depth], parts, &total) < 0) return -1;
    *out = total;
    return 0;
}

static PyObject *allocations(PyObject *self, PyObject *args) {
    (void)self;
    PyObject *hands, *groups, *sums, *inv;
    if (!PyArg_ParseTuple(args, "O!O!O!O", &PyTuple_Type, &hands, &PyTuple_Type, &groups, &PyDict_Type, &sums, &inv))
        return NULL;
    Py_ssize_t n = PyTuple_GET_SIZE(hands), ng = PyTuple_GET_SIZE(groups);
    if (n < 1 || n > MAXH || ng > MAXG || PySequence_Size(inv) < NINV) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "odds: too many hands or groups");
        return NULL;
    }
    Ctx c;
    c.sums = sums; c.ngroups = (int)ng; c.computed = 0;
    long h[MAXH];
    for (Py_ssize_t i = 0; i < n; i++)
        if ((h[i] = PyLong_AsLong(PyTuple_GET_ITEM(hands, i))) == -1 && PyErr_Occurred()) return NULL;
    for (Py_ssize_t i = 0; i < ng; i++)
        if ((c.groups[i] = PyLong_AsLong(PyTuple_GET_ITEM(groups, i))) == -1 && PyErr_Occurred()) return NULL;
    for (int i = 0; i < NINV; i++) {
        PyObject *x = PySequence_GetItem(inv, i);
        if (!x) return NULL;
        c.inv[i] = PyFloat_AsDouble(x);
        Py_DECREF(x);
        if (PyErr_Occurred()) return NULL;
    }
    for (Py_ssize_t i = 0; i <= ng; i++) c.suffix[i] = NULL;
    PyObject *result = NULL;
    for (Py_ssize_t i = 0; i <= ng; i++)
        if (!(c.suffix[i] = PyTuple_GetSlice(groups, i, ng))) goto done;
    PyObject *table = table_of(&c, 0);
    double total;
    if (table && spread(&c, table, h, (int)n, 0, &total) == 0) result = Py_BuildValue("(dl)", total, c.computed);
done:
    for (Py_ssize_t i = 0; i <= ng; i++) Py_XDECREF(c.suffix[i]);
    return result;
}

static PyMethodDef METHODS[] = {
    {"allocations", allocations, METH_VARARGS,
     "allocations(hands, groups, sums, inverse_factorials) -> (total, sums computed): odds._allocations."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef MODULE = {PyModuleDef_HEAD_INIT, "_odds", "FollowOdds' deal counting, compiled.", -1,
                                    METHODS, NULL, NULL, NULL, NULL};

PyMODINIT_FUNC PyInit__odds(void) { return PyModule_Create(&MODULE); }
