"""One inbound mail, start to finish: intake and quarantine, identifying the game and
authenticating the seat, playing the orders and mail commands, the replies and notices
it queues; and the clock's passes (deadlines, reminders, digests).
"""
