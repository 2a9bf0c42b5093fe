"""Files other tools read and write, above the analyses: results out to ParaView (VTK) and glTF, result
documents read back with their sidecars, and compas_dem's block models in and out (engine.io below holds
the model's own formats: schemas, the model document, strict JSON, CAD import)."""
