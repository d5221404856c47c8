/* Memo(question)(pm, attrs) of recycle.interp._cardsets (see _cardsets.c). */
#include "_cardsets.h"

/* --- Memo: a question about a point map, answered once per map ------------------------- */

#define MEMO_SIZE 16

typedef struct {
    PyObject_HEAD
    PyObject *question;              /* question(pm, attrs) -> bool */
    PyObject *maps[MEMO_SIZE];       /* held: no other map takes an id while it is here */
    Py_ssize_t cards[MEMO_SIZE];     /* len(attrs) asked about */
    char answers[MEMO_SIZE];
    int next;                        /* the entry replaced next */
    vectorcallfunc vectorcall;
} Memo;

static PyObject *
memo_call(PyObject *self_, PyObject *const *args, size_t nargsf, PyObject *kwnames)
{
    Memo *self = (Memo *)self_;
    Py_ssize_t nargs = PyVectorcall_NARGS(nargsf);
    if (nargs != 2 || kwnames != NULL)
        return PyObject_Vectorcall(self->question, args, nargsf, kwnames);
    PyObject *pm = args[0];
    Py_ssize_t cards = PyObject_Size(args[1]);
    if (cards < 0)
        return NULL;
    for (int i = 0; i < MEMO_SIZE; i++)
        if (self->maps[i] == pm && self->cards[i] == cards)
            return PyBool_FromLong(self->answers[i]);
    PyObject *got = PyObject_Vectorcall(self->question, args, nargsf, NULL);
    if (got == NULL)
        return NULL;
    int answer = PyObject_IsTrue(got);
    Py_DECREF(got);
    if (answer < 0)
        return NULL;
    int i = self->next;
    self->next = (i + 1) % MEMO_SIZE;
    Py_INCREF(pm);
    Py_XSETREF(self->maps[i], pm);
    self->cards[i] = cards, self->answers[i] = (char)answer;
    return PyBool_FromLong(answer);
}

static PyObject *
memo_new(PyTypeObject *type, PyObject *args, PyObject *kwds)
{
    PyObject *question;
    if (!PyArg_ParseTuple(args, "O", &question))
        return NULL;
    Memo *self = (Memo *)type->tp_alloc(type, 0);
    if (self == NULL)
        return NULL;
    Py_INCREF(question);
    self->question = question;
    self->vectorcall = memo_call;
    return (PyObject *)self;
}

static int
memo_traverse(Memo *self, visitproc visit, void *arg)
{
    Py_VISIT(self->question);
    for (int i = 0; i < MEMO_SIZE; i++)
        Py_VISIT(self->maps[i]);
    return 0;
}

static int
memo_clear(Memo *self)
{
    Py_CLEAR(self->question);
    for (int i = 0; i < MEMO_SIZE; i++)
        Py_CLEAR(self->maps[i]);
    return 0;
}

static void
memo_dealloc(Memo *self)
{
    PyObject_GC_UnTrack(self);
    memo_clear(self);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

PyTypeObject CardsetsMemoType = {
    PyVarObject_HEAD_INIT(NULL, 0)
    .tp_name = "recycle.interp._cardsets.Memo",
    .tp_doc = "Memo(question)(pm, attrs): question(pm, attrs), asked once per map and number of cards (the last 16 kept).",
    .tp_basicsize = sizeof(Memo),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_new = memo_new,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(Memo, vectorcall),
    .tp_traverse = (traverseproc)memo_traverse,
    .tp_clear = (inquiry)memo_clear,
    .tp_dealloc = (destructor)memo_dealloc,
};
