/* engine.ultimate._core: the Python binding of the search in csearch.c (see csearch.h). */
#define PY_SSIZE_T_CLEAN
#include <Python.h>
#include <pythread.h>

#include "csearch.h"

static int have_table = 0;
static PyThread_type_lock lock = NULL; /* one search at a time: the table is shared */

static int read_ints(PyObject *seq, int *out, int count) {
    PyObject *fast = PySequence_Fast(seq, "expected a sequence of ints");
    if (!fast) return -1;
    if (PySequence_Fast_GET_SIZE(fast) != count) {
        Py_DECREF(fast);
        PyErr_SetString(PyExc_ValueError, "wrong number of items");
        return -1;
    }
    for (int i = 0; i < count; i++) {
        long v = PyLong_AsLong(PySequence_Fast_GET_ITEM(fast, i));
        if (v == -1 && PyErr_Occurred()) {
            Py_DECREF(fast);
            return -1;
        }
        out[i] = (int)v;
    }
    Py_DECREF(fast);
    return 0;
}

/* set_table(buffer of 2**18 doubles): the chance table of evaluation.chances. */
static PyObject *set_table(PyObject *Py_UNUSED(self), PyObject *arg) {
    Py_buffer view;
    if (PyObject_GetBuffer(arg, &view, PyBUF_SIMPLE) < 0) return NULL;
    if (view.len != (Py_ssize_t)(sizeof(double) << 18)) {
        PyBuffer_Release(&view);
        PyErr_SetString(PyExc_ValueError, "the table must hold 2**18 doubles");
        return NULL;
    }
    csearch_set_table((const double *)view.buf);
    PyBuffer_Release(&view);
    have_table = 1;
    Py_RETURN_NONE;
}

/* root(x_marks, o_marks, side, target, moves, max_depth, seconds, weights)
 *   -> (best, value, depth, nodes, values)
 * As search.run: deeper and deeper over `moves` (board-major) until max_depth or `seconds`
 * (None for no limit; the first ply always completes); values follow `moves`. */
static PyObject *root(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *xs, *os, *moves_obj, *seconds_obj;
    int side, target, max_depth, xm[9], om[9], moves[81], values[81];
    double w[3];
    if (!PyArg_ParseTuple(args, "OOiiOiO(ddd)", &xs, &os, &side, &target, &moves_obj,
                          &max_depth, &seconds_obj, &w[0], &w[1], &w[2]))
        return NULL;
    if (!have_table) {
        PyErr_SetString(PyExc_RuntimeError, "set_table() first");
        return NULL;
    }
    if (read_ints(xs, xm, 9) < 0 || read_ints(os, om, 9) < 0) return NULL;
    Py_ssize_t count = PySequence_Length(moves_obj);
    if (count < 1 || count > 81) {
        if (!PyErr_Occurred()) PyErr_SetString(PyExc_ValueError, "1 to 81 moves");
        return NULL;
    }
    if (read_ints(moves_obj, moves, (int)count) < 0) return NULL;
    double deadline = 0;
    if (seconds_obj != Py_None) {
        double seconds = PyFloat_AsDouble(seconds_obj);
        if (seconds == -1.0 && PyErr_Occurred()) return NULL;
        deadline = csearch_now() + seconds;
        if (deadline <= 0) deadline = 1e-9;
    }
    int best, best_value, done;
    long long nodes;
    Py_BEGIN_ALLOW_THREADS
    PyThread_acquire_lock(lock, WAIT_LOCK);
    done = csearch_root(xm, om, side, target, moves, (int)count, max_depth, deadline, w, values,
                        &best, &best_value, &nodes);
    PyThread_release_lock(lock);
    Py_END_ALLOW_THREADS
    if (done < 0) return PyErr_NoMemory();
    PyObject *list = PyList_New(count);
    if (!list) return NULL;
    for (int i = 0; i < count; i++) PyList_SET_ITEM(list, i, PyLong_FromLong(values[i]));
    return Py_BuildValue("iiiLN", best, best_value, done, nodes, list);
}

static PyMethodDef methods[] = {
    {"root", root, METH_VARARGS, "Search a position to a depth or a time (see search.run)."},
    {"set_table", set_table, METH_O, "Set the chance table: 2**18 doubles."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "engine.ultimate._core",
    "The ultimate search in C (see engine/ultimate/search.py, its reference).", -1, methods,
    NULL, NULL, NULL, NULL,
};

PyMODINIT_FUNC PyInit__core(void) {
    csearch_init();
    if (!lock && !(lock = PyThread_allocate_lock())) return PyErr_NoMemory();
    return PyModule_Create(&module);
}
