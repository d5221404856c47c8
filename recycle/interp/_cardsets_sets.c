/* `HandSets`: the sets of k cards of one score of a hand, for `(tuples ...)` (see _cardsets.c). */
#include "_cardsets.h"

/* --- HandSets: the sets of k cards of one score of a hand, made in C ------------------ */

typedef struct {
    PyObject_HEAD
    PyObject *slow;      /* the Python closure: what is not plain cards of a point map, and errors */
    PyObject *pm_type;   /* store.PointMap */
    Py_ssize_t most;     /* more sets than this: `slow` raises the located error */
    vectorcallfunc vectorcall;
} HandSets;

#define MAX_HAND 64

/* The cards of `cards` (exact ints, all scored by `pm` as C longs) in score order, stable, into
 * `order` and `scores`; 0, or -1 where `slow` must answer (error cleared). */
static int
score_order(PyObject *cards, PyObject *pm, Py_ssize_t n, PyObject **order, long *scores)
{
    PyObject *cache = cardsets_cache_of(pm);
    if (cache == NULL) {
        PyErr_Clear();
        return -1;
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *c = PyList_GET_ITEM(cards, i);
        PyObject *s = PyLong_CheckExact(c) ? PyDict_GetItemWithError(cache, c) : NULL;
        int overflow = 0;
        long v = s != NULL && PyLong_CheckExact(s) ? PyLong_AsLongAndOverflow(s, &overflow) : 0;
        if (s == NULL || !PyLong_CheckExact(s) || overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();  /* not scored yet, or not a card: `slow` scores it (or says why not) */
            Py_DECREF(cache);
            return -1;
        }
        Py_ssize_t j = i;  /* insertion: after every card of a score not above it (stable) */
        while (j > 0 && scores[j - 1] > v) {
            scores[j] = scores[j - 1], order[j] = order[j - 1];
            j--;
        }
        scores[j] = v, order[j] = c;
    }
    Py_DECREF(cache);
    return 0;
}

static int
append_set(PyObject *out, PyObject **cards, Py_ssize_t *at, Py_ssize_t k)
{
    PyObject *set = PyList_New(k);
    if (set == NULL)
        return -1;
    for (Py_ssize_t i = 0; i < k; i++) {
        Py_INCREF(cards[at[i]]);
        PyList_SET_ITEM(set, i, cards[at[i]]);
    }
    int r = PyList_Append(out, set);
    Py_DECREF(set);
    return r;
}

/* The sets of `k` of the `g` cards `cards`, as itertools.combinations gives them. */
static int
combine(PyObject *out, PyObject **cards, Py_ssize_t g, Py_ssize_t k)
{
    Py_ssize_t at[MAX_HAND];
    for (Py_ssize_t i = 0; i < k; i++)
        at[i] = i;
    for (;;) {
        if (append_set(out, cards, at, k) < 0)
            return -1;
        Py_ssize_t i = k - 1;
        while (i >= 0 && at[i] == i + g - k)
            i--;
        if (i < 0)
            return 0;
        at[i]++;
        for (Py_ssize_t j = i + 1; j < k; j++)
            at[j] = at[j - 1] + 1;
    }
}

/* How many sets of k of g (saturating past `most`). */
static Py_ssize_t
choose(Py_ssize_t g, Py_ssize_t k, Py_ssize_t most)
{
    double r = 1;
    for (Py_ssize_t i = 0; i < k; i++)
        r = r * (double)(g - i) / (double)(i + 1);
    return r > (double)most ? most + 1 : (Py_ssize_t)(r + 0.5);
}

/* New reference: the sets, or NULL with no error set where `slow` must answer. */
static PyObject *
hand_sets_made(HandSets *self, PyObject *pm, PyObject *k_, PyObject *cards)
{
    if ((PyObject *)Py_TYPE(pm) != self->pm_type || !PyList_CheckExact(cards) || !PyLong_CheckExact(k_))
        return NULL;
    int overflow = 0;
    long k = PyLong_AsLongAndOverflow(k_, &overflow);
    Py_ssize_t n = PyList_GET_SIZE(cards);
    if (overflow || (k == -1 && PyErr_Occurred()) || n > MAX_HAND) {
        PyErr_Clear();
        return NULL;
    }
    PyObject *order[MAX_HAND];
    long scores[MAX_HAND];
    if (score_order(cards, pm, n, order, scores) < 0)
        return NULL;
    if (k <= 0 || k > n)
        return PyList_New(0);
    if (k == 1) {
        PyObject *out = PyList_New(n);
        for (Py_ssize_t i = 0; out != NULL && i < n; i++) {
            PyObject *set = PyList_New(1);
            if (set == NULL) {
                Py_CLEAR(out);
                break;
            }
            Py_INCREF(order[i]);
            PyList_SET_ITEM(set, 0, order[i]);
            PyList_SET_ITEM(out, i, set);
        }
        return out;
    }
    Py_ssize_t total = 0;
    for (Py_ssize_t i = 0, j; i < n; i = j) {
        for (j = i + 1; j < n && scores[j] == scores[i]; j++)
            ;
        total += choose(j - i, k, self->most);
        if (total > self->most)
            return NULL;  /* `slow` raises the located error */
    }
    PyObject *out = PyList_New(0);
    for (Py_ssize_t i = 0, j; out != NULL && i < n; i = j) {
        for (j = i + 1; j < n && scores[j] == scores[i]; j++)
            ;
        if (j - i >= k && combine(out, order + i, j - i, k) < 0)
            Py_CLEAR(out);
    }
    return out;
}

static PyObject *
hand_sets_call(PyObject *self_, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    HandSets *self = (HandSets *)self_;
    if (PyVectorcall_NARGS(nargsf) == 3 && kwnames == NULL) {
        PyObject *got = hand_sets_made(self, args[0], args[1], args[2]);
        if (got != NULL || PyErr_Occurred())
            return got;
    }
    return PyObject_Vectorcall(self->slow, args, nargsf, kwnames);
}

static PyObject *
hand_sets_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *slow, *pm_type;
    Py_ssize_t most;
    if (!PyArg_ParseTuple(args, "OO!n", &slow, &PyType_Type, &pm_type, &most))
        return NULL;
    HandSets *self = (HandSets *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(slow), Py_INCREF(pm_type);
    self->slow = slow, self->pm_type = pm_type, self->most = most;
    self->vectorcall = hand_sets_call;
    return (PyObject *)self;
}

static int
hand_sets_traverse(HandSets *self, visitproc visit, void *arg)
{
    Py_VISIT(self->slow);
    Py_VISIT(self->pm_type);
    return 0;
}

static int
hand_sets_clear(HandSets *self)
{
    Py_CLEAR(self->slow);
    Py_CLEAR(self->pm_type);
    return 0;
}

static void
hand_sets_dealloc(HandSets *self)
{
    PyObject_GC_UnTrack(self);
    hand_sets_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject CardsetsHandSetsType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "recycle.interp._cardsets.HandSets",
    .tp_doc = "HandSets(slow, PointMap, most)(pm, k, cards): the sets of k cards of one score, else slow's answer.",
    .tp_basicsize = sizeof(HandSets),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = hand_sets_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(HandSets, vectorcall),
    .tp_traverse = (traverseproc)hand_sets_traverse,
    .tp_clear = (inquiry)hand_sets_clear,
    .tp_dealloc = (destructor)hand_sets_dealloc,
};
