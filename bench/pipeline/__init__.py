"""The pipeline benchmark, a part per module; ``python -m bench.pipeline`` runs them (see
``__main__``)."""
