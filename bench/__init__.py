"""Benchmarks: one command per scenario, run from the checkout's root, each printing its
figures beside a fair reference measured in the same run.

    python -m bench.pipeline     # the pipeline's goals (reef vs peer, clocks, flat, burst, ...)
    python -m bench.workers      # 2 workers vs 1 on PostgreSQL
    python -m bench.burst        # 400 orders at once at idle `pbem serve` workers
    python -m bench.bots         # each game's computer player
    python -m bench.bot_budget   # bot CPU per pass across 100 tables
    python -m bench.engine       # the rules alone
    python -m bench.reply        # reading a 1 MB adversarial reply
    python -m bench.retention    # a year of a busy host: the database's growth

Shared pieces are in ``bench.common`` and the yardstick every bench prints first in
``bench.machine``; the real servers, scratch databases and test game come from
``pbem_testkit``, as the tests' do. Nothing here imports ``tests``.
"""
