"""A cache of analysed geometries, for repeated analyses of the same blocks under new loads.

A service answers many analyses of one structure whose loads change. What does not depend on
the loads is kept per geometry, least recently used out first:

- the checked blocks and their `BlockGeometry` (volumes, centres, unit-density inertias, packed
  polyhedra), taken over by ``Model.from_dict(doc, reuse=model)``. They depend on the blocks
  alone: masses are density times volume, so another density reuses them too; loads, gravity,
  materials, joints, settings and support motion are read and validated afresh from every
  document;
- the contacts at rest (`detect` in the drawn configuration), which depend on the blocks and
  the envelope: kept with the envelope they were detected with, detected again when it changes
  (settings.gaps closes their gaps afresh for every document, engine.analysis.joint_gaps);
- the start of static solves (engine.analysis.static.self_weight_start): the static impulses of
  the document without its loads. They depend on the whole document but its loads (gravity,
  densities, joint laws, settings), so they are kept with a digest of that part and solved
  again when it changes.

The start is not the last request's solution, although that would often be closer: a
statically indeterminate structure has many equilibrium force fields within the solver's
tolerance, and a solve ends at the one nearest its start, so each answer would carry the
history of the requests before it. From the load-free solution every answer is a function of
its own document: the same document gives the same result whatever came before, in any thread.

The key is `block_digest`, a hash of the document's blocks with their types. A document with
the same blocks is a hit; a moved vertex, another face or a changed support flag is a miss.
A result from the cache equals that of ``engine.analyze(doc, analysis)`` up to the starting
point of the solver: the verdict, the reactions and the load factor within its tolerance, and
the contact forces of a statically indeterminate structure up to a self-stress state. A bad
document raises the same ModelError.

The cache may be called from several threads: the table and its counters are guarded by a
lock; models are built and analyses run outside it, and what an entry keeps is replaced as a
whole, never modified (the engine only reads contacts, impulse guesses and block geometry).
"""
import hashlib
import pickle
import threading
from collections import OrderedDict

from extrados.engine.analysis.joint_gaps import closed_gaps
from extrados.engine.analysis.request import request_document
from extrados.engine.analysis.run import analyze
from extrados.engine.analysis.static import self_weight_start
from extrados.engine.errors import ModelError
from extrados.engine.model import Model, document_block_digest
from extrados.engine.pipeline import detect
from extrados.engine.state import State

DEFAULT_MAX_MODELS = 16
#: Parts of a model document that the start of static solves does not depend on.
NOT_IN_START = ("blocks", "loads")
#: Analyses made of static solves, which start from the cached WarmStart.
WARM_STARTED = ("static", "load_factor")


def start_digest(doc):
    """Digest of what `self_weight_start` depends on besides the blocks: the document without blocks and loads."""
    rest = {key: value for key, value in doc.items() if key not in NOT_IN_START}
    return hashlib.blake2b(pickle.dumps(rest, pickle.HIGHEST_PROTOCOL), digest_size=16).hexdigest()


class GeometryEntry:
    """What the cache keeps for one geometry: a model built on it, its contacts at rest and a start."""

    def __init__(self, model):
        self.model = model      # Model whose checked blocks and BlockGeometry later models take over
        self._contacts = None   # (envelope in m, Contacts at rest)
        self._start = None      # (start_digest, Contacts at rest it was solved on, WarmStart of self_weight_start)

    def contacts_at_rest(self, model):
        """Contacts at rest of ``model`` (of this geometry), detected once per envelope."""
        envelope = model.settings["envelope"]
        kept = self._contacts
        if kept is None or kept[0] != envelope:
            kept = self._contacts = (envelope, detect(model, State.initial(model.mechanics)))
        return kept[1]

    def kept_start(self, model, doc):
        """The WarmStart of ``model`` (built from ``doc`` on this geometry) if it is kept already, else None."""
        kept, contacts = self._start, self._contacts
        if (kept is None or contacts is None or contacts[0] != model.settings["envelope"]
                or kept[1] is not contacts[1] or kept[0] != start_digest(doc)):
            return None
        return kept[2]

    def warm_start(self, model, doc):
        """The WarmStart of ``model``, built from ``doc`` on this geometry: contacts at rest and the
        static impulses of ``doc`` without its loads, solved unless kept. None when the model cannot
        give them (the analysis then raises its own error, in its own order)."""
        kept = self.kept_start(model, doc)
        if kept is not None:
            return kept
        try:
            contacts = self.contacts_at_rest(model)
            start = self_weight_start(model, *closed_gaps(model, contacts))
        except ModelError:
            return None
        self._start = (start_digest(doc), contacts, start)
        return start


class AnalysisCache:
    """Analyses of model documents that reuse what earlier documents with the same blocks fixed.

    Parameters
    ----------
    max_models : int
        Geometries kept; the least recently used goes first.
    """

    def __init__(self, max_models=DEFAULT_MAX_MODELS):
        if max_models < 1:
            raise ValueError(f"max_models must be at least 1; got {max_models}")
        self.max_models = max_models
        self._entries = OrderedDict()   # block digest -> GeometryEntry, least recently used first
        self._lock = threading.Lock()
        self._hits = 0
        self._misses = 0

    def _lookup(self, digest):
        """The entry of ``digest`` (marked most recently used) or None; counts the hit or miss."""
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                self._misses += 1
            else:
                self._hits += 1
                self._entries.move_to_end(digest)
            return entry

    def _store(self, digest, model):
        """The entry of ``digest``, made from ``model`` unless another thread stored one meanwhile."""
        with self._lock:
            entry = self._entries.get(digest)
            if entry is None:
                entry = self._entries[digest] = GeometryEntry(model)
                while len(self._entries) > self.max_models:
                    self._entries.popitem(last=False)
            return entry

    def _entry_and_model(self, doc):
        """(GeometryEntry or None, Model) of a document; raises ModelError as Model.from_dict does."""
        digest = document_block_digest(doc)
        if digest is None:
            return None, Model.from_dict(doc)
        entry = self._lookup(digest)
        model = Model.from_dict(doc, reuse=None if entry is None else entry.model)
        return entry or self._store(digest, model), model

    def model(self, doc):
        """The Model of a model document, built on the cached geometry when there is one, and the
        WarmStart of its static solves if the cache keeps it already (None otherwise: `analyze`
        solves for it; this call never solves).

        Raises
        ------
        ModelError
            As ``Model.from_dict(doc)``.
        """
        entry, model = self._entry_and_model(doc)
        return model, None if entry is None else entry.kept_start(model, doc)

    def analyze(self, doc, analysis=None, progress=None, cancel=None):
        """``engine.analyze(doc, analysis, progress, cancel)`` on the cached geometry, warm started.

        Returns
        -------
        Result
            A function of ``doc`` and ``analysis`` alone; equal to the uncached one within the
            solver's tolerance, up to self-stress in a statically indeterminate structure.

        Raises
        ------
        ModelError
            As the uncached analysis, with the same path.
        AnalysisCancelled
            When ``cancel()`` turns True during a static or load factor analysis.
        """
        entry, model = self._entry_and_model(doc)
        warm = None
        if entry is not None and request_document(analysis)["type"] in WARM_STARTED:
            warm = entry.warm_start(model, doc)
        return analyze(model, analysis, progress, cancel, warm=warm)

    def stats(self):
        """dict of hits and misses (documents whose blocks were cached or not), entries and max_models."""
        with self._lock:
            return {"hits": self._hits, "misses": self._misses, "entries": len(self._entries),
                    "max_models": self.max_models}
