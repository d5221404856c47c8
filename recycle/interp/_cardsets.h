/* What the two files of recycle.interp._cardsets share (see _cardsets.c). */
#ifndef RECYCLE_CARDSETS_H
#define RECYCLE_CARDSETS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <stddef.h>

/* New reference to the `_cache` dict of point map `pm`, or NULL (error set). */
PyObject *cardsets_cache_of(PyObject *pm);

/* HandSets(slow, PointMap, most): the sets of k cards of one score (_cardsets_sets.c). */
extern PyTypeObject CardsetsHandSetsType;

/* Memo(question): a question about a point map, asked once per map (_cardsets_memo.c). */
extern PyTypeObject CardsetsMemoType;

#endif
