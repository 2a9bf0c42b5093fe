"""The values Extrados components pass along Grasshopper wires.

A wire carries any object, but Grasshopper enumerates what it can: a Python dict sent out of a
component arrives downstream as its keys. Blocks, materials, loads, motions and results therefore
travel wrapped in these small classes, each showing a one-line summary on a Panel.
"""
from __future__ import absolute_import

import math

from .conversions import DEFAULT_DENSITY, DEFAULT_FRICTION, DEFAULT_JOINT, DEFAULT_MATERIAL


class Item(object):
    """A value on a wire: ``data`` is its part of a model or result document."""

    kind = "item"

    def __init__(self, data):
        self.data = data

    def summary(self):
        return ""

    def __repr__(self):
        return "Extrados %s %s" % (self.kind, self.summary())

    __str__ = __repr__

    def ToString(self):
        """What a Grasshopper Panel shows."""
        return repr(self)


class Block(Item):
    """A block entry (DESIGN sec. 4). ``material_given`` is False when its component named no
    material, so that the analysis gives it the first material it is handed."""

    kind = "block"

    def __init__(self, data, material_given=True):
        Item.__init__(self, data)
        self.material_given = material_given

    @property
    def id(self):
        return self.data["id"]

    def summary(self):
        return "'%s' (%d vertices, %d faces%s)" % (self.id, len(self.data["vertices"]), len(self.data["faces"]),
                                                 ", support" if self.data.get("support") else "")


class Material(Item):
    """A material (density) and the joint law of its blocks' joints, under one name each.

    ``data`` is ``{"name", "density", "joint": name, "law": {...}}``: the document's
    ``materials[name]`` and ``joints[joint]``.
    """

    kind = "material"

    @property
    def name(self):
        return self.data["name"]

    def summary(self):
        law = self.data["law"]
        return "'%s' (%g kg/m3; joint '%s': %s, friction %g)" % (self.name, self.data["density"], self.data["joint"],
                                                              law["law"], law["friction"])


DEFAULT = Material({"name": DEFAULT_MATERIAL, "density": DEFAULT_DENSITY, "joint": DEFAULT_JOINT,
                    "law": {"law": "coulomb", "friction": DEFAULT_FRICTION}})


class Load(Item):
    """A load entry (DESIGN sec. 4): a point load or a body acceleration."""

    kind = "load"

    def summary(self):
        if self.data["kind"] == "point":
            return "%g N on '%s'%s" % (sum(f * f for f in self.data["force"]) ** 0.5, self.data["block"],
                                       " (live)" if self.data.get("live") else "")
        return "body acceleration %s%s" % (self.data["acceleration"], " (live)" if self.data.get("live") else "")


class GroundMotion(Item):
    """A ``support_motion`` entry (DESIGN sec. 4): a sine or a recorded acceleration."""

    kind = "ground motion"

    def summary(self):
        if self.data["kind"] == "sine":
            start = " from rest" if self.data.get("start") == "from_rest" else ""
            return "sine %g Hz%s" % (self.data["frequency"], start)
        if self.data["kind"] == "velocity":
            return "velocity %g m/s" % math.sqrt(sum(v * v for v in self.data["velocity"]))
        return "record of %d samples every %g s" % (len(self.data["accelerations"]), self.data["dt"])


class Result(Item):
    """A result document together with the model and the analysis request it answers."""

    kind = "result"

    def __init__(self, data, model, analysis):
        Item.__init__(self, data)
        self.model = model
        self.analysis = analysis

    def summary(self):
        data = self.data
        words = [data.get("analysis", "?")]
        if data.get("stable") is not None:
            words.append("stable" if data["stable"] else "unstable")
        if data.get("load_factor") is not None:
            words.append("load factor %.4g" % data["load_factor"])
        words.append("%d contacts" % len(data.get("contacts", [])))
        if data.get("frames"):
            words.append("%d frames" % len(data["frames"]))
        return ", ".join(words)


def unwrapped(value, kind):
    """The ``data`` of an item of class ``kind``, or a plain dict passed as it is (from a script)."""
    if isinstance(value, kind):
        return value.data
    if isinstance(value, dict):
        return value
    raise ValueError("expected an Extrados %s, got %s" % (kind.kind, type(value).__name__))
