"""The steps of the mail pipeline, one module each, in the order ``pbem.pipeline.chain`` lists.

Each has one function, ``handle(ctx) -> Result | None``: a Result when the mail's outcome is
decided (the chain stops), None to hand the mail on, having noted what it found in ``ctx``.
"""
