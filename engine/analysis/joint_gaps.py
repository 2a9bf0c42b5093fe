"""Small gaps between blocks as drawn, under the model's ``settings.gaps``: kept open, or closed.

The static CCP is one step of h = 1 s from rest (engine.analysis.static). A contact with gap
Phi > 0 enters it with the bias Phi / h (engine.contact.assemble.impact_bias): the blocks may approach
at up to Phi / h before it bears, so a block over a gap of a millimetre "moves" at a millimetre per
second in a structure that stands, and a settle run has to decide. A survey's joints are full of such
gaps: faces fitted to noisy points and cut to their neighbours (engine.survey) meet with misfits of
a few standard deviations of the noise (2-5 mm at sigma = 2.5 mm), and APGD then stalls at
residuals of 1e-5 against the 1e-7 target while the blocks drift into their gaps.

Under ``close`` every contact at rest whose gap is at most the tolerance is taken as touching
(Phi = 0): its joint bears from the start, as in a rigid-block equilibrium (the limit analysis of
engine.analysis.limit takes every detected contact as closed; so do compas_cra's interfaces). It is
the assumption that a misfit below the tolerance is measurement or drafting error, not a joint that
is really open; the tolerance says how large such an error can be. Penetrations (Phi < 0) are
kept. Settle runs and dynamic analyses keep the gaps as drawn: there they close by motion.
"""
import dataclasses

import numpy as np

from extrados.engine.io.model_document import GAPS_DEFAULTS


def gap_settings(model):
    """The model's ``settings.gaps`` over the schema's defaults: {"mode"[, "tolerance"]}."""
    return {**GAPS_DEFAULTS, **model.settings.get("gaps", {})}


def closing_tolerance(model):
    """m, the widest gap ``close`` closes: settings.gaps.tolerance, or the envelope when it gives none."""
    return gap_settings(model).get("tolerance", model.settings["envelope"])


def closed_gaps(model, contacts):
    """The contacts at rest with the gaps ``close`` closes set to 0, and the report of what it closed.

    Parameters
    ----------
    model : Model
    contacts : Contacts at rest (engine.pipeline.detect in the drawn configuration)

    Returns
    -------
    contacts : Contacts, the ones given when settings.gaps is ``open``
    report : dict of the result schema's ``gap_closure``, or None when settings.gaps is ``open``
    """
    if gap_settings(model)["mode"] != "close":
        return contacts, None
    tolerance = closing_tolerance(model)
    closing = (contacts.gap > 0.0) & (contacts.gap <= tolerance)
    report = {"tolerance": float(tolerance), "contacts": int(closing.sum()),
              "pairs": int(len(np.unique(contacts.pair[closing]))), "max_gap": {"gap": 0.0, "blocks": []}}
    if closing.any():
        widest = int(np.argmax(np.where(closing, contacts.gap, -np.inf)))
        ids = model.block_ids
        report["max_gap"] = {"gap": float(contacts.gap[widest]),
                             "blocks": [ids[contacts.body_a[widest]], ids[contacts.body_b[widest]]]}
    return dataclasses.replace(contacts, gap=np.where(closing, 0.0, contacts.gap)), report
