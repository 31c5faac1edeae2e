"""Every player in their own language: messages as data, gettext catalogues read with Babel.

See ``msg`` (sentences with fields, and the translator that renders them and dates),
``translate`` (each language's catalogues, a game's merged over the host's), ``zones`` (time
zones) and ``pbem.catalogues`` (extract/update/check every domain's ``.po`` files).
"""

from pbem.i18n.msg import N_, Msg, SeatRef, cmsg, msg, nmsg
from pbem.i18n.translate import LANGUAGES, Translator, translator

__all__ = ["LANGUAGES", "N_", "Msg", "SeatRef", "Translator", "cmsg", "msg", "nmsg", "translator"]
