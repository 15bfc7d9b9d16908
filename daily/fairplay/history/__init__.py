"""A player's record across days: the score residuals (:mod:`.residual`) and the
cumulative foresight evidence (:mod:`.sequential`) of their ranked games."""
