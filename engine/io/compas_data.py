"""COMPAS data objects of the engine: `Model` and `Result` stored and exchanged with ``compas.json_dump``.

COMPAS 2 writes a `compas.data.Data` as ``{"dtype": "<module>/<class>", "data": obj.__data__,
"guid": ...}`` and, on load, imports the class from that module and calls its ``__from_data__``.
Its default dtype keeps only the first two parts of the module (``extrados.engine/Model``), where
the engine does not export its classes; the dtype here is the class's own module
(``extrados.engine.model/Model``).
"""
from compas.data import Data


class DocumentData(Data):
    """A COMPAS Data object whose data is its document (``to_dict`` / ``from_dict`` of the subclass)."""

    # Data.__init__ sets these; the engine's classes build themselves without calling it
    _guid = None
    _name = None

    @property
    def __dtype__(self):
        return f"{type(self).__module__}/{type(self).__name__}"

    @property
    def __data__(self):
        return self.to_dict()

    @classmethod
    def __from_data__(cls, data):
        return cls.from_dict(data)
