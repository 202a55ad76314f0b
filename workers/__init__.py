"""RQ job functions: fold logs into projections, reconcile lagging battles, replay and audit."""
