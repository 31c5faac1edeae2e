"""The first words of greetings and sign-offs, folded (pbem.i18n.wordforms.fold), in the
languages mail clients write in: what tells a courtesy line from an order."""

from __future__ import annotations

from pbem.i18n.wordforms import fold

# First words of a greeting, folded (accents dropped), in the languages clients write in.
GREETINGS = frozenset(fold(w) for w in (
    "hi", "hello", "hey", "hiya", "dear", "greetings", "morning", "evening", "afternoon",
    "good", "yo", "howdy",
    "bonjour", "bonsoir", "salut", "coucou", "cher", "chère", "chers", "chères", "re",
    "hallo", "liebe", "lieber", "moin", "servus", "grüß", "guten", "sehr",
    "ciao", "salve", "buongiorno", "buonasera", "caro", "cara", "cari", "gentile",
    "hoi", "beste", "goedemorgen", "goedemiddag", "goedenavond", "dag", "hey",
    "hola", "buenos", "buenas", "estimado", "estimada", "querido", "querida",
    "olá", "ola", "oi", "bom", "boa", "caro", "prezado", "prezada",
    "cześć", "dzień", "witam", "witajcie", "drogi", "droga",
    "привет", "здравствуйте", "здравствуй", "добрый", "доброе", "уважаемый", "дорогой",
    "hej", "hejsa", "god", "kära", "kaere", "kære",
    "ahoj", "dobrý", "dobry", "milý", "milá", "vážený",
    "こんにちは", "こんばんは", "おはよう", "你好", "您好", "各位", "大家好"))
# First words of a sign-off, folded.
SIGN_OFFS = frozenset(fold(w) for w in (
    "thanks", "thank", "thx", "ta", "cheers", "regards", "best", "kind", "warm", "warmest",
    "yours", "sincerely", "cordially", "love", "bye", "see", "talk", "later", "all", "have",
    "good", "greetings",
    "merci", "cordialement", "amitiés", "amicalement", "bises", "bisous", "salutations",
    "bien", "bonne", "à", "a", "au", "belle",
    "grüße", "gruß", "grüsse", "gruss", "lg", "vg", "mfg", "viele", "liebe", "herzliche",
    "beste", "danke", "bis", "tschüss", "tschüs", "schönen",
    "ciao", "saluti", "grazie", "cordiali", "un", "buona", "alla",
    "groeten", "groetjes", "groet", "bedankt", "dank", "tot", "vriendelijke", "met", "fijne",
    "gracias", "saludos", "atentamente", "abrazos", "besos", "hasta", "nos",
    "obrigado", "obrigada", "abraços", "abraço", "cumprimentos", "atenciosamente", "beijos",
    "até",
    "dzięki", "dziękuję", "pozdrawiam", "pozdrowienia", "serdecznie", "do",
    "спасибо", "с", "всего", "пока", "до", "удачи",
    "tack", "hälsningar", "mvh", "vänliga", "hälsning", "ha",
    "tak", "hilsen", "venlig", "kh", "mange",
    "děkuji", "díky", "s", "zdravím", "hezký",
    "よろしく", "宜しく", "ありがとう", "谢谢", "謝謝", "此致", "祝好"))
# Sign-offs written without spaces, matched at the start of the line.
JOINED_SIGN_OFFS = ("よろしく", "宜しく", "ありがとう", "谢谢", "謝謝", "此致", "祝好", "多谢")
