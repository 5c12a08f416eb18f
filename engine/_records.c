/* Frozen records built without their __init__ (engine.trickstate builds a hand's result
   with these; record_maker's Python twin is the class itself).

   A frozen dataclass sets each field through object.__setattr__, about 100 ns a field:
   a hand's result (two teams of nine fields and the hand's five) cost more than a whole
   trick. A maker is told once which of the class's slots hold its fields, in the order
   of its __init__, and stores into them what a call passes, as the slots' own setters
   would; the object is an instance of the class itself, frozen as any other.

   Included by _kernel.c. */

#define RECORD_FIELDS 16

typedef struct {
    PyObject_HEAD
    PyTypeObject *cls;
    Py_ssize_t nfields;
    Py_ssize_t offsets[RECORD_FIELDS];
    vectorcallfunc vectorcall;
} RecordMaker;

static PyObject *rm_vectorcall(RecordMaker *m, PyObject *const *args, size_t nargsf,
                               PyObject *kwnames) {
    Py_ssize_t n = PyVectorcall_NARGS(nargsf);
    if (kwnames && PyTuple_GET_SIZE(kwnames)) {
        PyErr_Format(PyExc_TypeError, "%s's maker takes its fields by position",
                     m->cls->tp_name);
        return NULL;
    }
    if (n != m->nfields) {
        PyErr_Format(PyExc_TypeError, "%s's maker takes %zd fields, not %zd", m->cls->tp_name,
                     m->nfields, n);
        return NULL;
    }
    PyObject *made = m->cls->tp_alloc(m->cls, 0);
    if (!made) return NULL;
    for (Py_ssize_t i = 0; i < n; i++)
        *(PyObject **)((char *)made + m->offsets[i]) = Py_NewRef(args[i]);
    return made;
}

static int rm_traverse(RecordMaker *m, visitproc visit, void *arg) {
    Py_VISIT(m->cls);
    return 0;
}

static void rm_dealloc(RecordMaker *m) {
    PyObject_GC_UnTrack(m);
    Py_CLEAR(m->cls);
    PyObject_GC_Del(m);
}

static PyTypeObject RecordMakerType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "engine._kernel.RecordMaker",
    .tp_basicsize = sizeof(RecordMaker),
    .tp_flags = Py_TPFLAGS_DEFAULT | Py_TPFLAGS_HAVE_GC | Py_TPFLAGS_HAVE_VECTORCALL,
    .tp_doc = "Builds a frozen record from its fields, by position (engine/_records.c).",
    .tp_dealloc = (destructor)rm_dealloc,
    .tp_traverse = (traverseproc)rm_traverse,
    .tp_call = PyVectorcall_Call,
    .tp_vectorcall_offset = offsetof(RecordMaker, vectorcall),
};

/* The slot named `name` among the members `cls` itself declares (a class's own slots are
   its tp_members): its offset, or -1. */
static Py_ssize_t record_slot(PyTypeObject *cls, PyObject *name) {
    const char *wanted = PyUnicode_AsUTF8(name);
    if (!wanted) return -1;
    for (PyMemberDef *member = cls->tp_members; member && member->name; member++)
        if (member->type == T_OBJECT_EX && !(member->flags & READONLY) &&
            strcmp(member->name, wanted) == 0)
            return member->offset;
    PyErr_Format(PyExc_TypeError, "%s has no slot %R", cls->tp_name, name);
    return -1;
}

/* record_maker(cls, fields): a maker of `cls` objects from its `fields` by position. */
static PyObject *k_record_maker(PyObject *self, PyObject *args) {
    PyTypeObject *cls;
    PyObject *fields;
    if (!PyArg_ParseTuple(args, "O!O!:record_maker", &PyType_Type, &cls, &PyTuple_Type, &fields))
        return NULL;
    /* Every slot its own and filled: an object with a dict, items, a base with slots of
       its own or a slot left unset is not a record this can make. */
    Py_ssize_t n = PyTuple_GET_SIZE(fields);
    int plain = (cls->tp_flags & Py_TPFLAGS_HEAPTYPE) && cls->tp_itemsize == 0 &&
                cls->tp_dictoffset == 0 && cls->tp_base == &PyBaseObject_Type &&
                cls->tp_alloc == PyType_GenericAlloc && Py_SIZE(cls) == n &&
                n <= RECORD_FIELDS;
    if (!plain) {
        PyErr_Format(PyExc_TypeError,
                     "%s is not a record of %zd slots of its own (at most %d), without a dict",
                     cls->tp_name, n, RECORD_FIELDS);
        return NULL;
    }
    RecordMaker *m = PyObject_GC_New(RecordMaker, &RecordMakerType);
    if (!m) return NULL;
    m->cls = (PyTypeObject *)Py_NewRef(cls);
    m->nfields = n;
    m->vectorcall = (vectorcallfunc)rm_vectorcall;
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *name = PyTuple_GET_ITEM(fields, i);
        if (!PyUnicode_Check(name) || (m->offsets[i] = record_slot(cls, name)) < 0) {
            if (!PyErr_Occurred()) PyErr_SetString(PyExc_TypeError, "field names are strings");
            Py_DECREF(m);
            return NULL;
        }
        for (Py_ssize_t j = 0; j < i; j++)
            if (m->offsets[j] == m->offsets[i]) {
                PyErr_Format(PyExc_TypeError, "field %R is named twice", name);
                Py_DECREF(m);
                return NULL;
            }
    }
    PyObject_GC_Track(m);
    return (PyObject *)m;
}

static int records_add(PyObject *module) {
    if (PyType_Ready(&RecordMakerType) < 0) return -1;
    return PyModule_AddObjectRef(module, "RecordMaker", (PyObject *)&RecordMakerType);
}
