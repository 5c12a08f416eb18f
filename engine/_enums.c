/* An enum's members read from their class as plain class attributes (Python 3.11).

   In 3.11 enum.EnumType defines __getattr__, so every attribute read from an enum class,
   `Phase.TRICKS` included, goes through the slot that looks for __getattribute__ and
   __getattr__ by name and calls them through Python's call machinery: some 900 machine
   instructions where a class attribute costs a few dozen, and a driver compares the
   phase with two or three members at every action. 3.12 dropped that __getattr__.

   plain_member_reads(metaclass) gives a subclass of EnumType the attribute reads of
   `type` itself. EnumType's __getattr__ only finds members that are not in their class's
   dict (a member named like a property of the class), so the caller first checks that
   every member of the classes made with this metaclass is in their dict; an attribute
   found nowhere still raises AttributeError.

   Included by _kernel.c. */

static PyObject *k_plain_member_reads(PyObject *self, PyObject *meta) {
    if (!PyType_Check(meta) || !PyType_IsSubtype((PyTypeObject *)meta, &PyType_Type) ||
        !(((PyTypeObject *)meta)->tp_flags & Py_TPFLAGS_HEAPTYPE)) {
        PyErr_SetString(PyExc_TypeError, "plain_member_reads takes a metaclass made in Python");
        return NULL;
    }
    PyTypeObject *type = (PyTypeObject *)meta;
    /* Only a metaclass that declares no __getattribute__ of its own (its reads would be
       skipped too), and only its own slot: EnumType and its other subclasses keep theirs. */
    PyObject *own = PyDict_GetItemString(type->tp_dict, "__getattribute__");
    if (own) {
        PyErr_SetString(PyExc_TypeError, "the metaclass declares __getattribute__");
        return NULL;
    }
    if (type->tp_getattro != PyType_Type.tp_getattro) {
        type->tp_getattro = PyType_Type.tp_getattro;
        PyType_Modified(type);
    }
    Py_RETURN_NONE;
}
