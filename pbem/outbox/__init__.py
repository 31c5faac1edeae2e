"""Delivering the queued mail: leases, retries, and what a failed send leaves behind.
"""
