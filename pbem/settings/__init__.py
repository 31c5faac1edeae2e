"""What the operator configured: the config file, the few settings the pipeline needs, and
the inbox and sender they name.
"""
