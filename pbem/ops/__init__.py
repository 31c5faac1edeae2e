"""Operations: what the CLI calls. Games and seats (api, admin), export and import, the
archive and static site, the overview, bots and the demo, the doctor and the DNS records.
"""
