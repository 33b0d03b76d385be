"""How each sentence of a question stands to it: the ones that ask, the ones that tell of others or of the past, and
of those the ones that tell of what the asker had, left or leaves out. Readers prefer what the asking sentences say."""
from __future__ import annotations

import re

from . import regex as rx
from . import vocabulary as v
from .shorthands import normalize

ASKING_WORD = r"(?:what|how|which|will|would|can|could|is|are|does|do|should)\b"
PEOPLE = (r"(?:professor|prof|advisor|boss|manager|lead|friend|buddy|colleague|coworker|roommate|teammate|guy|cto|ceo|vendor"
          r"|(?:vendor |sales ?)?rep|salesperson|seller)")  # whose words a clause reports
# Where a question's clauses part: each break (a regex alternative) with an example of what it parts.
CLAUSE_BREAKS = (
    r"(?<=[.!?;])\s+(?:[-*•]\s+)?", r"\s*`+\s*", r"\s*\n\s*(?:[-*•]\s+)?", r"\s+•\s+",  # code ('`vllm serve`'): a piece
    r",\s+(?=(?:but|so|whereas|while|though|although|yet)\b)",  # 'a P40 on ebay, but I've read ...'
    rf",\s+(?={ASKING_WORD}(?:[^,.!?]|\.(?=\w))*\?)",  # '..., would the 70b fit?'
    rf"(?<=:)\s+(?={ASKING_WORD})",  # 'before I blame X: what ...'
    r"(?<=:)\s+(?=(?:on|with|for|using|at|in)\b[^.?!:]*\?)",  # 'forget the mac: on the 3090 box, what ...?'
    r"\s+[-—]+\s+(?=(?:we|i|it|they|the|but|so|my|our|his|her|their|someone|a friend|please)\b)",  # '(96GB) - we sold the 3090s'
    r"\s+(?=(?:but|so|since|because|as) (?:(?:i|we)(?:'m|'ve|'d|'ll|'re)?|im|the|my|our|it|it's|that|thats|that's"
    r"|they|he|she|now|then|this)\b)",  # '... on my 4090 since the team A6000 is taken'
    r"\s+(?=and (?:got|bought|picked up|grabbed|(?:now|then) (?:i|we|they|wants?|needs?)|(?:the|our|my) new)\b)",  # '... and got a 5090'
    r"\s+(?=but (?:just |then |recently |finally |now )?(?:moved|switched|upgraded|got|bought|picked up|grabbed|went)\b)",
    # reports of their own: '..., and someone on our Slack insists', '..., my professor says ...', '... vendor rep says AMD wins'
    rf",\s+(?=and (?:someone|somebody|people|(?:my|our|a) {PEOPLE})\b)",
    rf",\s+(?=(?:(?:my|our|a|the) )?{PEOPLE} (?:\w+ )?(?:says|said|thinks|claims|swears|insists|told)\b)",
)
CLAUSES = rf"(?<=;)\s+|(?:{'|'.join(CLAUSE_BREAKS)})(?![^()]*\))"  # not inside brackets, but at ';': '(4x V100 here; ...)'


Ranges = list[tuple[int, int]]  # (start, end) in the normalised text
Piece = tuple[str, bool, bool, bool]  # a clause or bracket: its words, whether it asks, reports, and is left


def sentence_tiers(question: str, text: str) -> tuple[Ranges, Ranges, Ranges]:
    """Where in the normalised `text` the sentences are that ask, that only report others or the past ('a friend ran it
    on 2 A100s'), and that tell of what the asker had, left or leaves out ('my old 3090', 'ignore it'; never read).
    Nothing for a kind when every sentence is of one kind or they cannot be placed."""
    lines = rx.sub(r"(?<=[\w)%])[ \t]*\n", ".\n", question.strip())  # a line (a bullet) ends as a sentence does
    whole = [s for s in rx.split(CLAUSES, lines, flags=re.IGNORECASE) if rx.search(r"\w", s)]
    marked = any("?" in s for s in whole)
    pieces = tell_pieces(whole, which_ask(whole, marked), marked)
    return place_pieces(pieces, text)


def which_ask(whole: list[str], marked: bool) -> list[bool]:
    """Which clauses ask: a question mark (or a question's opening), and the clauses an ask leans on."""
    whole_asks = [("?" in s or bool(v.ASKS_WITHOUT_MARK.match(s.lower().lstrip("\"'(* ")))) if marked  # 'What would I get: X, Y.'
                  else bool(v.QUESTION_START.match(s.lower().lstrip("\"'(* ")) or v.ASKS_UNMARKED.search(s.lower()))
                  for s in whole]
    for n in range(len(whole) - 1):  # a short ask of the sentence before: all its clauses are what is asked
        first = n
        while first > 0 and not rx.search(r"[.!?;]\s*$", whole[first - 1]):
            first -= 1
        claim = any(v.REPORTED.search(c.lower()) or v.NAMED_SAYS.search(c) for c in whole[first:n + 1])
        of_the_claim = claim and rx.match(  # 'My colleague say it not fit on ours. Is true?'
            r"\s*(?:(?:is|was) (?:that |this |it |he |she )?(?:really |actually )?(?:true|right|correct|so)\b"
            r"|(?:true|right|correct|real|legit|accurate)\W*$)", whole[n + 1].lower())
        of_the_options = rx.match(  # '... buying 2x X at $8,500 each vs renting at $1.80/hr ... . which is cheaper?'
            r"\s*(?:so |ok |okay )?which (?:one |option )?(?:is|would be|comes out|works out) (?:the )?(?:cheaper|better|faster|best"
            r"|cheapest|more cost[ -]effective)\s*\??\s*$", whole[n + 1].lower())
        if whole_asks[n + 1] and not whole_asks[n] and (of_the_claim or of_the_options):
            whole_asks[first:n + 1] = [True] * (n + 1 - first)
    for n in range(len(whole) - 2, -1, -1):  # 'On the A6000, using vLLM, what's the biggest model?': one ask
        joined = whole_asks[n + 1] and not whole_asks[n] and not rx.search(r"[.!?;]\s*$", whole[n])
        short_ask = len(whole[n].split()) <= 6 and rx.match(r"\s*(?:so |ok |okay )?(?:who|who's|whos|which|what|how)\b", whole[n].lower())
        if joined and (v.LEAD_IN.match(whole[n].lower()) or v.ASKS_OF_THE_CLAUSE_BEFORE.match(whole[n + 1].lower())
                       or short_ask):  # 'who's right, does it fit?': one ask
            whole_asks[n] = True  # '..., how do they compare?': the clause before names what is asked about
    return whole_asks


def tell_pieces(whole: list[str], whole_asks: list[bool], marked: bool) -> list[Piece]:
    """Each piece (a clause, a bracket) with whether it asks, reports, and is left."""
    pieces: list[Piece] = []
    for n, (sentence, ask_here) in enumerate(zip(whole, whole_asks, strict=True)):
        own = without_acquisition_times(rx.sub(r"\([^()]*\)", " ", sentence).lower())
        for bracket in rx.findall(r"\(([^()]*)\)", sentence.lower()):  # a bracket telling of its clause, up to a contrast:
            said = rx.split(r",? (?:but|although|though|while|whereas) ", bracket)[0]  # '(it's one GPU of eight, but ...)'
            if rx.match(r"(?:that|this|which|those|these|it)\b", bracket) and v.HEARSAY.search(said) or (  # '(that's the old setup)'
                    v.DISMISSED.search(said) and rx.search(v.REFERRING, bracket)  # '(not asking about that price)'
                    and not rx.match(r"\s*(?:the|a|an|our|my|their|his|her)\b", bracket)):  # '(the b200s are theirs...)' is its own
                own += f" {bracket}"
        dismissed_next = any(  # '... at $2.10/hr but ignore it', '... $0.20/hr but I'm sure that's off, so don't use it'
            n + k < len(whole) and not any(rx.search(r"[.!?;]\s*$", p) for p in whole[n:n + k])
            and v.DISMISSED.search(rx.sub(r"\([^()]*\)", " ", whole[n + k]).lower()) is not None
            and rx.search(v.REFERRING, whole[n + k].lower()) is not None for k in (1, 2))
        # a question passed on ('She asked me what the biggest batch is ... What should I tell her?') or the asker's plan
        if not ask_here and (rx.search(r"\basked (?:me|us) (?:what|how|whether|if|which)\b", own)  # ('We want to run X.')
                             or v.INTENT.match(own) and v.REPORTED.search(own) is None):
            ask_here = marked
        moving = v.MOVING_TO.search(own) is not None  # 'moving off the old setup onto 2x H100': the move itself is told
        reported = (v.REPORTED.search(own) is not None or v.NAMED_SAYS.search(rx.sub(r"\([^()]*\)", " ", sentence)) is not None) \
            and rx.search(v.BUYING_PLAN, own) is None \
            and not rx.search(r"\b(?:if (?:that|it|this) (?:matters|helps|changes anything|makes a difference)|if relevant"
                              r"|in case (?:it|that) matters)\W*$", own)
        # not 'saw a 5070 Ti on sale and am thinking of pulling the trigger', nor passed on as part of the question ('he
        # mentioned running it in 4-bit if that matters')
        told = not ask_here and (reported or v.LEFT.search(own) is not None and not moving or dismissed_next)
        left = told and (dismissed_next or v.LEFT.search(own) is not None and not reported)
        for piece in rx.split(r"(\([^()]*\))", sentence):  # '(my old 3090 went to my kid)': an aside of its own
            if rx.search(r"\w", piece):
                after_old = bool(pieces) and rx.search(r"\bold(?: [\w-]+){0,2}\s*$", pieces[-1][0].lower()) is not None
                aside_of_its_own = piece.startswith("(") and "?" not in piece and (
                    v.HEARSAY.search(piece.lower()) is not None or after_old  # 'the old TGI setup (4x A100...)'
                    or rx.match(r"\((?:which|that|it) (?:ran|did|got|gave|managed|was|had|used to)\b", piece.lower()) is not None)
                asks = not aside_of_its_own and (ask_here or piece.startswith("(") and "?" in piece)
                reports = not asks and (told or aside_of_its_own)
                pieces.append((piece, asks, reports,
                               reports and (left if not aside_of_its_own else v.REPORTED.search(piece.lower()) is None)))
    return pieces


def place_pieces(pieces: list[Piece], text: str) -> tuple[Ranges, Ranges, Ranges]:
    """Where the pieces are in the normalised text."""
    asking: Ranges = []
    aside: Ranges = []
    gone: Ranges = []
    at = 0
    for sentence, ask_here, report, left_behind in pieces:
        piece = normalize(sentence)
        if not piece:  # 'lora_r: 16' alone normalises to nothing: no words to place
            continue
        start = text.find(piece, at)
        if start < 0:  # normalising a piece alone can differ at its edges ('+16%.'): place it by its first words
            start = text.find(" ".join(piece.split()[:4]), at)
            piece = text[start:start + len(piece)] if start >= 0 else piece
        if start < 0:
            return [], [], []
        (asking if ask_here else aside if report else []).append((start, start + len(piece)))
        if left_behind:
            gone.append((start, start + len(piece)))
        at = start + len(piece)
    asks, reports = [p[1] for p in pieces], [p[2] for p in pieces]
    return ([] if all(asks) or not any(asks) else asking), ([] if all(reports) else aside), ([] if all(reports) else gone)


def without_acquisition_times(clause: str) -> str:
    """'2x A100 in a workstation the lab bought last year': when the asker got what they describe is no past setup,
    where the purchase qualifies something named before it; 'I got a 3090 last year, now ...' still tells of the past."""
    def kept(m: re.Match[str]) -> str:
        told = len(clause[:m.start()].split()) >= 3 or m.start() == 0 and m.group(0).startswith(("and ", "finally "))
        return " " if told else m.group(0)
    return rx.sub(v.ACQUIRED_WHEN, kept, clause)
