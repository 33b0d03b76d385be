"""How questions say the money and training tools' inputs: phrase tables (regular expressions over the normalised
question) that reading.py's readers walk. A new phrasing is a new alternative or row here, not a new branch."""
from __future__ import annotations

from gpusizer.tools.speed.training_time import CHINCHILLA_TOKENS_PER_PARAMETER

from .number_words import NUMBER_K

PRICE = r"\$ ?\d[\d,.]* ?k?\b"  # '$8,500', '$25k'
EACH = r"(?:each|apiece|per card|per gpu(?![ -]?h| per h)|a card|a pop)"  # a price per card, not per GPU-hour
PER_GPU_HOUR = r" ?(?:/ ?|per |an? |each )(?:gpu[ -]?(?:/ ?|per )?)?h(?:ou)?r?\b(?: per gpu)?"  # '/hr', ' per gpu per hour', '/hr per gpu'
# The price to buy one GPU ('$8,500 each'); number, k: groups 1, 2.
PURCHASE_PRICE = (
    rf"\$ ?{NUMBER_K}\b ?(?:{EACH}|a gpu|to buy|purchase"
    r"|for (?:the|a|one) (?:card|gpu)\b|per (?!h(?:ou)?r|month|year|day|week|token|million|gpu)[a-z0-9]+\b(?![ -]?h(?:ou)?r))")
PRICE_TALK = r"\b(?:buy\w*|purchas\w*|own\w*|pric\w*|cost\w*|pay|paid|msrp|retail|capex)\b"  # where a bare '8.5k each' is money
THOUSANDS_EACH = rf"(?<![\w.$/])(\d+(?:\.\d+)?) ?(k) {EACH}\b"
NOT_CARDS = r"\b(?:sequences|requests|chats|prompts|sessions|users|conversations)\b"  # '... at 4k each' before: contexts
BUY_FOR = (
    r"\b(?:buy\w*|purchas\w*)(?: (?:an?|one|the|a used|a new))? \S+(?: \S+)? for (?:about |around |~ ?)?\$? ?(\d+(?:\.\d+)?) ?(k)\b")
QUOTED_PRICE = r"\b(?:quote|quoted|quotation|msrp|list price|price tag|sticker price)\b(?: [a-z]+){0,5}? \$? ?(\d+(?:\.\d+)?) ?(k)\b"
PAID = r"\b(?:bought|got|picked up|grabbed|snagged|paid)\b"  # before a price: what was paid for a card already owned
WEIGHING = (
    r"\b(?:buy\w*|purchas\w*|rent\w*|cloud|worth|vs\.?|versus|break[ -]?even|quot\w*|cheaper|pays? (?:off|for itself)"
    r"|if (?:we|i) (?:just )?bought)\b")  # ... unless buying is weighed, when it is the price to weigh
# How busy the GPUs are: '60% utilization' (group 1), '8 hours a day' (hours, period: groups 1, 2), '24/7', 'half the
# time' (SHARES: the share a phrase starts with; others are 1.0).
BUSY_PERCENT = (
    r"(?<![+\d.])(\d+(?:\.\d+)?) ?%(?! ?/ ?\d| ?(?:cpu|gpu|of (?:it|(?:the |my )?(?:layers|model|vram|memory|ram|the price|the cost))"
    r"|upfront|up front|down|off|discount|more|less|better|faster|cheaper|slower|higher|lower|improvement|gain|mfu)\b)(?: utili[sz]\w*"
    r"| of the time| busy| usage| load| duty cycle)?")
BUSY_SHARE = r"utili[sz]ation(?: of| at| is)? (0?\.\d+|1(?:\.0)?)\b"
HOURS_EACH = r"(\d+(?:\.\d+)?) ?(?:hours?|hrs?|h) ?(?:an? |per |each |every |/) ?"  # hours a period ('8 hours a day'): how busy
HOURS_A_PERIOD = HOURS_EACH + "(day|week|month|year)"
STEADY = (
    r"\b24/7\b|\b(?:a)?round the clock\b|\ball the time\b|\bcontinuously\b|\b(?:half|a quarter|a third|three quarters) of the time\b"
    r"|\bhalf the time\b|\b(?:full|max\w*) (?:utili[sz]\w*|load|usage|capacity|tilt)|\bfully (?:utili[sz]ed|used|loaded|busy)|\bflat[ -]out"
    r"|\bnon-?stop|\bmaxed out")
SHARES = {"half": 0.5, "a quarter": 0.25, "a third": 1 / 3, "three quarters": 0.75}
RATE_WORDS = r"\$ ?(\d+(?:\.\d+)?)" + PER_GPU_HOUR
# A rate the question doubts or dates ('H200s were $10/hr last year'): not the asker's rent; Ask rents at the catalog's.
HEARSAY_RATE = RATE_WORDS + (r"(?=[^$]{0,40}?\b(?:last year|a year ago|(?:\w+ )?(?:years?|months?) ago|back in|used to|no idea if"
                             r"|not sure (?:if|whether)|(?:don't|do not) (?:know|trust)|(?:might|may) have changed|outdated))")
NO = (
    r"\b(?:no|without|zero|not paying for|don't pay for|no need for) (?:any |extra |additional |new |added "
    r"|more )?(?:\w+(?:,| or| and| nor|/) ?){0,3}?")  # 'no extra staff or colo': the list before the cost named
# Costs an owner says they will not pay ('into a server we already have, no extra staff or colo'): the words and the
# rent_vs_buy inputs they set.
NOT_PAID = (
    (NO + r"(?:staff|ops|admins?|sysadmins?|headcount|hires?|people)\b|\b(?:existing|current|our own) (?:staff|team|ops|admins?)\b",
     {"staff_usd_per_year": 0.0}),
    (NO + r"(?:colo|colocation|hosting|rack space|racks?|data ?cent(?:er|re) (?:space|fees|costs?))\b"
     r"|\b(?:we|i) (?:already )?(?:have|own|run) (?:our own |the |a |an )?(?:rack space|racks?|data ?cent(?:er|re)|server room|colo)\b",
     {"colocation_usd_per_kw_month": 0.0}),
    (r"\b(?:into|in|inside) (?:a|an|the|our|my) (?:\w+ )?(?:server|box|workstation|rig|machine|pc|tower|chassis|node) (?:we|i)"
     r"(?: already)? (?:have|own|run)\b|\b(?:existing|current|spare slot in (?:a|our|my)) (?:server|box|workstation|rig|chassis|node)\b",
     {"server_share_usd_per_gpu": 0.0, "networking_usd_per_gpu": 0.0}),
)
# A project's length when buying is weighed ('a 6-month project'): the horizon (count and unit: groups 1, 2).
PROJECT = (r"\b(\d+(?:\.\d+)?)[ -]?(week|month)s?[ -](?:long )?(?:\w+ )?(?:project|engagement|pilot|grant|study|experiment"
           r"|gig|program)\b", r"\b(?:project|engagement|pilot|grant|gig)(?: \S+){0,3}? (?:of|lasting|for|running|over)"
           r" (?:about |around |roughly )?(\d+(?:\.\d+)?) (week|month)s?\b")

# A token count asked for, or claimed by others: (words, the span's kind, its value; a claim's number, scale: groups 1, 2).
# 'Chinchilla-optimal' sets the tokens, where 'how many tokens' only asks.
TOKENS_TOLD = ((r"\bhow many (?:\S+ )?tokens\b(?! ?(?:per|a|/) ?(?:s|sec|second|day|hour)\b| (?:of )?context"
                r"| (?:\w+ )?fit)", "tokens_asked", None),
               (r"\b(?:chinchilla|compute)[- ]?optimal\w*", "tokens_asked", CHINCHILLA_TOKENS_PER_PARAMETER),
               (r"\b(?:thinks?|says?|said|claims?|reckons?|believes?|guess\w*|estimates?|told (?:me|us))(?: that)?(?: \S+){0,4}? "
                r"(\d+(?:\.\d+)?) ?(t|b|bn|m|trillion|billion|million) tokens?\b", "claimed_tokens", None))
