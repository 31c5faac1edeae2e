"""The pipeline: inbound mail → orders → new state → queued mail; and the outbox sender."""
