"""One inbound mail, start to finish, and the clock's passes (deadlines, reminders, digests).

Read it top to bottom: ``one_mail`` (intake: read once, record, dedupe, seal) runs the mail
down ``chain`` (the handlers in order, one module each in ``handlers/``; the mail commands in
``commands/``), which ends in ``replies`` (the answers and notices it queues). ``quarantine``
keeps what cannot be handled; ``stored`` is how a mail is kept (keys, bytes, secrets blanked).
"""
