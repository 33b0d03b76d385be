"""The words a sizing question is made of, as data: formats, engines, recipes, durations, and the words that carry
no sizing fact (so 'ignored' lists only the words that might have mattered)."""
from __future__ import annotations

import re

NUMBER_WORDS = {"a": 1, "an": 1, "one": 1, "single": 1, "two": 2, "dual": 2, "pair": 2, "couple": 2, "three": 3, "four": 4,
                "quad": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "ten": 10, "twelve": 12, "sixteen": 16,
                "thirty-two": 32, "sixty-four": 64}
GPUS_PER_NODE = 8  # an 'H100 node' is an HGX/DGX-style 8-GPU server, the shape every cloud sells

# (pattern, weights_dtype), most specific first; None: the pattern names a method, not a storage format
WEIGHT_FORMATS = [
    (r"\bq[ -]?lora\b", None),
    (r"\b(q[2-8]_(?:k_[msl]|k|0|1)|iq[1-4]_(?:xxs|xs|nl|s|m))\b", "gguf"),
    (r"\bmxfp4\b", "mxfp4"), (r"\bnvfp4\b", "nvfp4"), (r"\bnf4\b", "nf4"), (r"\bawq\b", "awq"), (r"\bgptq\b", "gptq"),
    (r"\b(int4|4[ -]?bits?|fp4|4bpw)\b", "int4"), (r"\b(int8|8[ -]?bits?)\b", "int8"), (r"\bfp8\b", "fp8"),
    (r"\bfp16\b|\bfloat16\b|\bhalf[ -]precision\b", "fp16"), (r"\bbf16\b|\bbfloat16\b", "bf16"),
    (r"\bfp32\b|\bfull[ -]precision\b|\bfloat32\b", "fp32"),
]
KV_FORMATS = {"q4_k_m": "q4_0", "q8_k_m": "q8_0",  # a KV cache has no k-quants: 'q4' there is q4_0
              "fp8": "fp8", "int8": "int8", "8bit": "fp8", "8-bit": "fp8", "8 bit": "fp8", "q8_0": "q8_0", "q8": "q8_0",
              "q4_0": "q4_0", "q4": "q4_0", "4-bit": "q4_0", "4bit": "q4_0", "4 bit": "q4_0"}
ENGINES = {"vllm": "vllm", "sglang": "sglang", "llama.cpp": "llama_cpp", "llamacpp": "llama_cpp", "llama cpp": "llama_cpp",
           "llama-cpp": "llama_cpp", "llama-server": "llama_cpp", "ollama": "llama_cpp", "lm studio": "llama_cpp",
           "lmstudio": "llama_cpp", "koboldcpp": "llama_cpp", "transformers": "hf", "hf transformers": "hf"}
OPTIMIZERS = [(r"\bpaged[ _-]?adamw?[ _-]?8[ -]?bit\b", "paged_adamw_8bit"),
              (r"\b8[ -]?bit[ _-]?adamw?\b|\badamw?[ _-]?8[ -]?bit\b|\bbnb adam\w*", "adamw_8bit"),
              (r"\bpaged[ _-]?adamw?\b", "paged_adamw"), (r"\badafactor\b", "adafactor"), (r"\bsgd\b", "sgd"),
              (r"\badamw?\b", "adamw")]
RECIPES = [(r"\b(?:huggingface|hf) trainer\b", "hf_trainer"), (r"\bsfttrainer\b", "trl"), (r"\btorchtune\b", "torchtune"),
           (r"\bunsloth\b", "unsloth"), (r"\btrl\b", "trl")]  # the longest name first
SHARDING = [(r"\bzero[ -]?(?:stage[ -]?)?([123])\b|\bdeepspeed (?:zero )?stage[ -]?([123])\b", "zero"),
            (r"\bfsdp\b", "fsdp")]
SPOT = r"(?:spot|preemptible|interruptible)"  # a price the cloud may interrupt
DURATION_HOURS = {"hour": 1.0, "hr": 1.0, "h": 1.0, "day": 24.0, "week": 168.0, "wk": 168.0, "month": 730.0, "year": 8760.0}
HOURS_PER_QUARTER = 3 * DURATION_HOURS["month"]  # as the tools price a year
SPEND_RATE = (
    # '$4k a month' is what is paid, not how long
    r"(?:\$ ?\d[\d,.]*|\d[\d,.]* ?(?:usd|dollars|bucks|eur|euros))(?: ?k\b)? ?(?:a|an|per|each|every|/) ?(?:day|week|month|mo|year|yr)\b")
COMPUTE_PRECISION = (
    # the figure a datasheet quotes for a precision
    r"\b(bf16|fp16|fp8|fp4|fp32|tf32|int8)(?: dense)? (?:compute|tflops|flops|tops|math|tensor(?: core)? (?:throughput|performance))\b")
TOKEN_SCALE = {"t": 1e12, "trillion": 1e12, "b": 1e9, "bn": 1e9, "billion": 1e9, "m": 1e6, "million": 1e6, "k": 1e3}

# Names of accelerators people ask about that the catalog does not hold; each is read as 'a GPU we do not know'.
UNKNOWN_GPU_PATTERNS = [
    r"\b(?:apple )?m[1-4] ?(?:pro|max|ultra)?\b(?= ?(?:mac|chip|with|w/|\d|$))", r"\bapple m[1-4](?: ?(?:pro|max|ultra))?\b",
    r"\bmac ?(?:book(?: pro| air)?|studio|mini|pro)?\b",
    r"\bapple silicon\b", r"\bmac ?(?:book(?: pro| air)?|studio|mini|pro) m[1-4](?: pro| max| ultra)?\b",
    r"(?<!\$)\b(?:rtx |gtx )?(?:[1-5]0[5-9]0|20[6-8]0|1[06][5-8]0)(?: ?ti| ?super)?(?: (?:mobile|laptop|max-q))?\b"
    r"(?! ?(?:b\b|tokens|users|hours|h\b|days|\$))",
    r"\b(?:amd )?(?:radeon )?(?:rx )?[5-9][0-9]00 ?xtx?\b",
    r"\b(?:nvidia )?(?:a2|a16|a30|a40|a800|h20|h800|l20|b100|mi50|mi100|mi210|mi250|w6800|rtx ?a[245]000|rtx ?[345]000)s?\b",
    r"\b(?:quadro )?rtx ?8000\b",
    r"\brtx ?(?:pro ?)?[2-6]\d00(?: ada| blackwell)?\b(?! ?(?:tokens|users|hours))",
    r"\b(?:intel )?arc ?[ab][3-7][0-9]0\b", r"\btesla [pkm]\d{2,3}s?\b",
    r"\b[pk](?:40|80|100)s?\b", r"\btitan(?: rtx| v| xp)?\b", r"\bjetson(?: (?:agx|orin|xavier|nano|nx|thor|tx2))*\b",
    r"\bstrix halo\b", r"\bdgx spark\b",
    r"\b(?:amd )?ryzen ai(?: max\+?)?(?: pro)?(?: \d{3})?\b", r"\bradeon (?:ai )?pro ?[rw]?\d{4}\b", r"\bgaudi ?1\b",
]

# Families of open models: a name of one the catalog does not hold is an unknown model, not an ignored word
MODEL_FAMILIES = ("llama", "codellama", "qwen", "qwq", "mistral", "mixtral", "devstral", "magistral", "codestral", "ministral",
                  "gemma", "phi", "deepseek", "falcon", "yi", "command",
                  "olmo", "granite", "glm", "chatglm", "kimi", "starcoder", "internlm", "baichuan", "minicpm", "nemotron", "dbrx",
                  "grok", "jamba", "exaone", "smollm", "hermes", "vicuna", "zephyr", "solar", "aya", "bloom", "opt", "gpt-j",
                  "gpt-neox", "pythia", "stablelm", "orca", "wizardlm", "openchat", "tinyllama", "mpt", "llava", "pixtral")

MODEL_LINES = "large|small|medium|mini|nano|nemo|tiny|coder|r|plus|max|pro|flash|lite|turbo"  # 'Mistral Large 2', 'command-r-plus'

# Words before a size that describe it rather than name a model ('a dense 70b', 'my 7b')
MODEL_WORDS = frozenset("dense moe base instruct chat coder code small tiny mini gpt-2 gpt2 style llama-style sized".split())

# Words that carry no sizing fact: grammar, chatter, and the question words each journey is recognised by.
STOP_WORDS = frozenset("""
a an the of on in at for to with and or but so if then than that this these those it its it's is are was were be been being
am do does did doing done can could would should will shall may might must i i'm im me my we our us you your they them
what which who how when where why whether there here any some all each every both either no not just only also too very
really actually maybe probably about into from by as per via up out over under more most less least much many enough
get got getting go going use using used run running runs need needs needed want wanted like would've i'd i've we're
hey hi hello thanks thank please guys folks anyone someone everyone know tell ask asking wondering curious trying try
thinking think looking plan planning currently realistic realistically possible possibly able ok okay well still
wants kind sort rough roughly approx approximately around estimate estimated estimation ballpark quick
have has had having own make makes give gives let lets work works working handle setup set box machine rig
gpu gpus card cards graphics accelerator accelerators hardware vram memory ram gb model models llm llms inference train
training fine-tune fine tune finetune fine-tuning finetuning tuning serve serving host hosting deploy deployment
fit fits fitting cost costs price prices pricing cheap cheaper cheapest expensive budget money dollars rent renting
rental buy buying purchase owning compare comparison versus vs better best recommend recommended choose pick
fast faster speed throughput tokens token context length sequence long longer longest max maximum largest biggest
big large batch size users concurrent parallel simultaneous simultaneously concurrently requests total engine
required require requires requirement requirements
time take takes hours days tok/s t/s tokens/s tokens/sec tok/sec tps expect expected oom
moe active params parameters experts kv cache hour hourly second sec single
minimum min cloud layers heads architecture specs spec
gonna wanna gotta what's whats way that's there's we'd don't doesn't can't won't isn't
""".split())

# ---- how a sentence stands to the question: asking, telling, or reporting what others did or what was before
QUESTION_START = re.compile(
    r"(?:how|what|what's|whats|which|will|would|can|could|is|are|does|do|should|any|where|why|when|please|estimate|calculate|tell me"
    r"|give me|help me|quote me)\b")
REPORTS = (  # a quoted price is data
    r"(?:say|said|says|saying|claims?|claimed|claiming|swears|swore|insists|insisted|told|reckons|thinks|got|gets|ran|runs|did|pays|paid"
    r"|does|oom'd|asked|posted|reported|mentioned|recommends|recommended|found|showed|shows|wrote|lists|listed|keeps|kept|couldn't|floated"
    r"|pitched|proposed|suggested|listing|threw out|tried|post|posts|benchmarked|clocked|pushed|pushes|pushing|could not)")
DISMISSAL = (r"\b(?:(?:ignore|disregard) (?:it|that|this|them)|unrelated|irrelevant|not asking|not what (?:i'm|im|i am|we're) after"
             r"|neither of which|(?:is|that's|that one's|thats) settled|not relevant|not the question|not my question"
             r"|forget (?:about )?(?:the|my|our) \w+|forget (?:about )?(?:that|this|those|these) (?:cards?|gpus?|ones?|box|rig)"
             r"|(?:is|are) (?:obviously |clearly )?out\b|not an option|out of scope"
             r"|leave (?:it|them|that) out|decommission\w*|(?:a )?separate (?:conversation|question|topic|discussion)"
             r"|(?:a )?different (?:model|card|gpu|setup|situation|hardware|engine|framework|runtime|stack|backend)|totally different"
             r"|(?:that's|thats|it's|its|is) (?:\w+ )?(?:not realistic|unrealistic|inflated|a joke|made up)"
             r"|(?:is|are) reserved for (?:training|inference|another|other|the other|a different)"
             r"|(?:has|have) (?:it|them) booked|(?:is|are) (?:\w+ ){0,2}booked"
             r"|(?!which\b)[\w-]+(?:'s| is| are|'re) (?:\w+ )?(?:useless|no use)"
             r"|(?:please )?(?:don't|do not) (?:want to )?use(?: (?:it|that|this|them))?"
             r"|beside the point|not the point|(?:rules|policy|policies) (?:don't|do not) allow"
             r"|not touching (?:it|that|this|them|those|these)|won't touch"
             r"|neither (?:applies|is relevant|matters)"
             r"|(?:don't|do not) (?:factor|count|include|consider) (?:it|that|this|them)(?: in)?"
             r"|(?:can't|cannot|can not) hold anything"
             r"|(?:leave|set) (?:that|it|them|this) aside|wrong fit|not what (?:we|i)(?:'d| would| will)? (?:actually )?(?:pay|spend)"
             r"|belongs? to (?:another|a different|the other|other)|too big|too large"
             r"|(?:i|we) (?:won't|will not|wouldn't|am not going to|'m not going to|are not going to|'re not going to) use (?:it|that"
             r"|this|them|those|these)|(?:said|says) no"
             r"|(?:that's|thats|that is) (?:his|her|their) (?:problem|business|thing)"
             # 'still not touching the Mixtral setup', 'the quote fell through'
             r"|(?:not|n't|never) (?:be )?(?:touching|touched|changing|changed|replacing|replaced)|fell through|(?:has |have )?expired"
             # 'a turnkey appliance, we are not going that route', 'that was a 7b, not comparable', '..., ignoring that'
             r"|not (?:going|taking) (?:that|this) (?:route|way|path)|(?:not|isn't|aren't|wasn't|weren't) (?:really )?comparable"
             r"|ignoring (?:it|that|this|them)|not applicable|(?:please )?(?:ignore|disregard) the [\w-]+"
             r" (?:figure|number|estimate|quote|deck|slide|claim)|not what (?:we|i) (?:have|own|run|use|got)"
             r"|(?:is|are) theirs|not ours|(?:feels?|seems?|looks?) like overkill)\b")
DISMISSED = re.compile(DISMISSAL)  # said of the clause before: '... a quote at $2.10/hr, but that's for another team, ignore it'
# what the asker had, left or cannot use: never an input, even where the question refers back to what others said
LEFT_BEHIND = (r"\b(?:(?<!in )(?<!still have )my old|(?:his|her|their) old"
               r"|(?<!in my )(?<!in our )old (?:[\w-]+ ){0,2}(?:box|rig|card|gpu|setup|fleet|cluster|servers?|nodes?|machines?"
               r"|workstations?|cards"
               r"|gpus)(?!(?: ,)? (?:but |and )?(?:(?:i'?m|we'?re|i am|we are|it'?s|its|is) )?still\b)"  # 'old setup but still using it'
               r"|our old|reassigned|repurposed|\w+'s old|(?<!that )(?<!which )used to|back in|last year|previously"
               r"|previous(?! (?:admin|owner|sysadmin|manager|it admin)\b)"
               r"|last time|earlier|(?:our|my|the) (?:last|previous) (?:run|job|attempt|experiment|training run|project|gig|company"
               r"|employer"
               r"|contract|role|team|cluster|setup|box|rig|machine|server|build)"
               r"|for reference|(?:the|our|my) (?:pilot|poc|prototype|proof of concept|trial)(?: \w+)? (?:ran|was|used|had|did)"
               r"|old (?:chat ?bot|bot|product|app|deployment|service|pipeline|project|stack|system|version)"
               r"|(?:not|never|n't) (?:be )?going back|won't go back|(?:that|the|our) contract (?:is|was) over"
               r"|too slow|too small|too old|cramped|outgrown|before that|i was on|we were on|i had|we had"
               r"|is now in|in a drawer|on a shelf|in storage"
               r"|collecting dust|gathering dust|(?:is|are) gone|(?:can't|cannot|can not) (?:do|handle|run) (?:it|that|this)"
               r"|stays in|lent|borrowed|sold|won't cut it|no better"
               r"|(?:being |been |is |are |was )?retired|retiring|goes (?:back|to)|(?:is|are) taken|taken by|spoken for"
               r"|regrets|gave up|kept oom\w*|took (?:forever|ages)"
               r"|(?:our|my|the) first (?:\w+ )?(?:experiment|attempt|try|test|run)"
               r"|(?<!the )(?<!our )(?<!my )\blast (?:job|run) (?:was|took|used|ran)"
               r"|(?:it|they) (?:stays?|remains?) with|anymore|no longer|before this|paperweights?|obsolete|(?:i|we) (?:first )?tried"
               r"|prototyp\w*(?: \w+)? on|up until|until recently|until now|off[ -]limits"
               r"|(?:moved|moving|move|got|getting) (?:off|away from|rid of)|ditch(?:ed|ing)?|dumped"
               r"|(?:the|our|my|those) old [a-z]*\d+\w*)\b"  # 'keep the old A100s for CI'
               + rf"|{DISMISSAL}")
LEFT = re.compile(LEFT_BEHIND)
# when the asker got what they have ('the box we bought last year', 'got them 2 years ago'): still theirs, not left behind
ACQUIRED_WHEN = re.compile(
    r"\b(?:i|we|i've|we've|lab|company|university|department|org|school|employer|office|which|that|were|was|^and|^finally) (?:just "
    r"|finally )?(?:bought|got|purchased|acquired|built|leased|picked up|installed|received)(?: [\w'-]+){0,4}? (?:last (?:year|month|week"
    r"|summer|winter|spring|fall|autumn|quarter)|(?:a|an|one|two|\d+) (?:few )?(?:years?|months?|weeks?) ago|back in \w+"
    r"|in (?:19|20)\d\d)\b")
REPORTED = re.compile(  # a report of what someone else did or said ('ago': the past); a possessive alone is no report
    rf"\b(?:(?:someone|somebody|some guy|a guy|guy|friend|buddy|colleague|coworker|people|roommate|flatmate|classmate|labmate|teammate"
    rf"|brother|sister|cousin|dad|mom|brother-in-law|wife|husband|boyfriend|lead|manager|advisor|professor|supervisor|youtuber|streamer"
    rf"|influencer|tiktoker|girlfriend|others|he|she|they|rep|vendor|marketplace|listing|provider|ad|peer|consultant|contractor|cfo|ceo|cto"
    rf"|boss|another|integrator|reseller|supplier|firm|partner|seller|post|pr|site|table|framework|page|paper|docs?|guide|writeup|write-up"
    rf"|video)(?:'s)?(?: \w+){{0,5}}? {REPORTS}"
    r"|(?<!through a )(?<!via a )(?<!from a )(?<!at a )(?<!through my )(?<!via my )(?<!at my )\b(?:friend|buddy|colleague|coworker|cousin"
    r"|brother|sister)'s (?:\w+ ){0,3}(?:startup|company|team|lab|rig|setup|box|build)\b"
    r"|\b(?:they're|they are|he's|he is|she's|she is) (?:all )?(?:on|using|running)\b|guy on|blog|article|tutorial|thread|reddit"
    r"|(?<!my )(?<!our )discord(?! bot| friends?| buddies| pals| server| crew)|readme|faq|reportedly|apparently|i read|i've read"
    r"|i have read|i saw|saw (?:someone|a|people)|(?:blog|launch|reddit|forum) post|write-?up|announcement"
    r"|(?:the |another |other |search |research |infra |platform |data |ops |it )team(?:'s)? (?:\w+ )?(?:runs|ran|says|said|claims|got|gets"
    r"|uses|used|quoted|quotes|estimated|estimates|reckons)|^\s*(?:saw|read|heard) (?:in|on|that|somewhere|\w+'s)\b|ago"
    r"|last (?:summer|winter|spring|fall|autumn|month|week|quarter|semester|term))\b|^\s*>|\bwrote\s*,")  # '> Mark wrote:': a quoted e-mail
INTENT = re.compile(r"\s*(?:so |and |but |now |ok |okay )?(?:(?:i|we)(?:'d| would)? (?:really |actually |just )?(?:want|need|plan|intend"
                    r"|hope|'d like|would like|am trying|are trying|'m trying|'re trying) to|(?:i|we)(?:'m| am|'re| are) "
                    r"(?:choosing|deciding|torn) between|(?:i|we)(?:'m| am|'re| are) (?:now |also |currently |seriously )?(?:considering"
                    r"|looking at|eyeing)"
                    r"|the (?:plan|goal|idea) is to"
                    r"|(?:my|our) goal is|next up is|next (?:month|week|quarter|year)\b(?! (?:we|i) (?:had|did|ran)))\b")
# (INTENT: the asker's own plan, part of what is asked about)
PRICE_SET_ASIDE = (
    r"\b(?:leav\w*|set\w*|put\w*) (?:the )?(?:price|prices|pricing|cost|costs|quotes?) aside\b"
    r"|\b(?:ignore|ignoring|disregard\w*) (?:the |that |those |these )?(?:price|prices|pricing|quotes?|cost)\b"
    r"|\bgo with (?:typical |the )?(?:market|street|catalog|list) pric\w*|\b(?:normal|typical|usual|standard|regular|public) (?:on-demand "
    r"|market |cloud )?(?:pric\w*|rates?)\b")
# ('leaving price aside (the quotes expire)': no price is read)
NAMED_SAYS = re.compile(  # 'Dmitri says', 'per Sam' (case kept)
    r"(?<!on )(?<!in )(?<!our )(?<!the )(?<!my )(?<!at )\b[A-Z][a-z]+(?:'s)? (?:\w+ ){0,2}?(?:says|said|swears|swore|claims|claimed|reckons"
    r"|insists|insisted|told|mentioned|reported|thinks|wrote)\b|\b(?:per|according to) [A-Z][a-z]+\b")
HEARSAY = re.compile(rf"{REPORTED.pattern}|{LEFT_BEHIND}")  # what others said, or what the asker had or leaves out
ASKS_WITHOUT_MARK = re.compile(
    r"(?:(?:also|and|plus|btw|oh and),? )?(?:what|what's|whats|how|which|will|would|can|could|should)\b(?! i did| we did| i do| we do)")
ASKS_UNMARKED = re.compile(
    r"\b(?:(?:i |we )?(?:just )?(?:want|need|would like|'d like) (?:a|an|the|to know|to find out)"
    r"|(?:wants|needs|asked) to (?:know|find out)|i'm curious|im curious|wondering|tell me|let me know)\b")
BUYING_PLAN = (
    r"(?<!was )(?<!were )\b(?:thinking (?:of|about)|considering|planning (?:on|to)|plan to|going to|about to|gonna|want to|might"
    r"|leaning towards) (?:buy\w*|get\w*|grab\w*|order\w*|pull\w* the trigger|pick\w* (?:it |one )?up)\b")
MOVING_TO = re.compile(
    r"\b(?:move|moves|moving|moved|switch|switched|switching|swap|swapping|swapped|migrate|migrating|upgrade|upgrading|go|going"
    r"|transition\w*)(?: (?:it|them|this|that|everything|over|up|us|me|the \w+|\w+_\w+))? to\b"
    rf"|\bonto\b|{BUYING_PLAN}"
    r"|\bfor (?:production|prod|launch)\b|\bnow wants?\b")
HARDWARE_OPEN = re.compile(
    r"\bnot asking (?:which|what|whether|if|about (?:the )?(?:gpus?|cards?|hardware))"
    r"|\b(?:leaving aside|regardless of|whatever) (?:what|which)? ?(?:hardware|gpus?|cards?)\b"
    r"|\b(?:i |we )?(?:just|only) (?:want|need) the (?:raw |actual |bare |pure |plain )?(?:number|figure|memory|estimate)\b"
    r"|\b(?:forget|ignore|never ?mind) (?:about )?(?:the )?(?:hardware|gpus?|cards?)\b"
    r"|\bno (?:hardware|gpus?|cards?) (?:picked|chosen|decided)|\bbefore (?:i|we) (?:start )?(?:pick|choose|request|decide on|buy|order"
    r"|pric)\w* (?:any |the |new )?(?:gpus|hardware|cards)\b")
ENGINE_SOURCES = r"(?:pr|prs|issues?|docs|readme|repo|github|changelog|release notes|maintainers?|devs)\b"  # 'the vllm docs say'

ASKS_OF_THE_CLAUSE_BEFORE = re.compile(
    r"\s*(?:how|what|which|would|will|can|could|do|does|is|are)\b[^.?!]*\b(?:they|them|those|these|both|the two|either|each)\b")
PLACES = (
    r"\b(?:at|in|on|for) (?:the |my |our |a )?(home|work|office|lab|job|laptop|desktop|workstation"
    r"|(?:new|old|current|existing) (?:box|server|cluster|machine|rig|node|card|cards|gpus?|setup|hardware))\b")
AGE = r"\b(new|old|current|existing|today's)\b"  # 'the new 256x H200 cluster', 'our current 128x A100 40GB'
COUNTED_BACK = r"\b(?:those|these|the|all|its|my|our) (\d+|two|three|four|eight) (?:new )?(?:cards|gpus)\b"  # 'onto those 4 cards'
ORGANISATIONS = (
    r"lab|team|startup|company|shop|firm|agency|consultancy|group|insurer|org|organi[sz]ation|business|nonprofit|university|department"
    r"|hospital|bank|school|household|family|studio")
LEAVE_OUT = (
    r"\b(?:forget|ignore|disregard|leave out|excluding|not counting|not asking about) (?:about )?(?:the |my "
    r"|our )?(?:\d+ (?:x )?)?([a-z0-9]+)\b")  # 'ignore the three T4s in the same rack', 'ignore the 2x A100 quote'
REFERRING = r"\b(?:that|it|those|these|them)\b|\bthis\b(?! (?:week|month|year|quarter|time|weekend|morning|afternoon))"
WHO_IS_RIGHT = r"\b(?:who's|who is|whos|which (?:one |side |of (?:them|us|the two) )?is) (?:right|correct)\b|\bwhich is it\b"
CHECKS_A_CLAIM = re.compile(  # the report is the question
    r"\b(?:is|was) (?:that|this|it|the claim|he|she|they) (?:(?:really|actually|even|about|roughly) )?(?:true|right|correct|accurate"
    rf"|legit)\b|\bdoes (?:that|the claim) (?:still )?hold\b|{WHO_IS_RIGHT}")
TROUBLESHOOTING = (  # 'NCCL hangs at init', 'does fabricmanager have to match the driver version?', 'nothing useful in dmesg'
    r"\b(?:connection refused|won't start|keeps? (?:dying|crashing)|crash(?:es|ed|ing)?|exit status|error code|driver update|after updating"
    r"|reboot\w*|systemctl|localhost|throwing \d{3}s?|fans? (?:get|gets|are) (?:really )?loud|grinding noise|coil whine"
    r"|making (?:a |an )?(?:\w+ )?noise|fans? (?:spin|spins|spinning|ramp|ramps|ramping|rev|revs)\w*"
    r"|nccl (?:error|hangs?|hung|hanging|timeouts?|timed out)|fabric ?manager|driver version|dmesg|segfault\w*|stack ?trace|traceback"
    r"|oom[ -]?killed"  # the container's host memory limit, not the GPU's
    # a build or a load that breaks: 'fails at the link step', 'throws KeyError on ...lora_A'
    r"|undefined reference|link(?:er)? (?:step|error)|build (?:fails|failed|error)|fails to (?:build|compile)|compil(?:e|ation) error"
    r"|(?:key|value|type|attribute|import|runtime|index)error|no kernel image|\[bug\]|known issue|illegal memory access|cuda error)\b")
OFF_TOPIC = (
    r"\b(?:rgb|led lighting"  # looks, not sizing
    r"|who (?:launched|started|created|spun up|owns|made)|(?:ai|ml|data|cloud|gpu|it) strategy"  # an audit, a plan
    r"|temperature and top[_ -]?[pk]|top[_ -]?[pk] and temperature|sampling (?:params|parameters|settings)"  # sampling
    r"|prompt (?:format|template)|chat template"  # which template a model wants
    r"|(?:psu|power supply) (?:is |be |would be |will be )?(?:enough|sufficient|big enough)|how (?:many|much) watt\w*"  # power
    r"|dumber|make it (?:smarter|better|less dumb)|quality loss|perplexity)\b")  # quality, not hardware
LEAD_IN = re.compile(
    r"\s*(?:on|with|using|for|at|in|if|assuming|given|across|under|via|over|from) (?!(?:reference|context|comparison|what it's worth"
    r"|the record)\b)")  # a phrase; 'for reference, ...' tells
REFERS_BACK = (r"\b(?:fits?|run|work|load)s? (?:\w+ )?(?:on|in|across) (?:that|those|them|it)\b"
               r"|\b(?:can|could|will|would|does|do) (?:the pair|the two|both of them|those two|these two)\b"  # 'can the pair hold X?'
               r"|\b(?:at|with|using) (?:those|these|the same|that) (?:settings|config\w*|params|parameters|hyperparam\w*|numbers)\b"
               r"|\b(?:the )?same (?:quant\w*|context(?: length)?|settings?|config\w*|format|precision|setup)\b"
               r"|\b(?:does|did|will|would) (?:it|that|this) (?:really|actually)\b|\b(?:legit|claim\w*)\b|\bholds? (?:up|true)\b"
               r"|\b(?:should|would|could) (?:that|it|this|they) have\b"
               r"|\b(?:rent|buy|get|use|run) (?:them|those)\b"
               r"|\b(?:between|of) (?:them|the two|both)\b|\bboth of them\b"
               r"|\b(?:rent|buy|get|use|run) (?:one|that one)\b(?! \w*\d)"  # 'rent one', not 'the 104b one'
               r"|\b(?:is|was|are|were) (?:that|this|it|he|she|they) (?:(?:really|actually|even|about|roughly) )?"
               r"(?:true|right|real|so|correct|legit|accurate|realistic"
               r"|possible|for real)\b|\bdoes (?:that|this|it) (?:still )?(?:hold|work|apply|check out)\b"
               rf"|{WHO_IS_RIGHT}")  # 'who's right?'
STAFF = r"people|staff|employees|devs?|developers?|engineers?|researchers?|members|students|analysts?|teammates|colleagues"
AT_ONCE = (
    r"(?:(?:are |being |will |would |may |might )?(?:hitting|using|use|uses|hit|online|active|at once|at the same time|simultaneous\w*"
    r"|concurrent\w*|in (?:the )?same time)\b)")

# what a bare '9k' counts when it is not tokens of context: money, things, people, rates
NOT_CONTEXT_NOUNS = (
    r"(?! ?(?:(?!per |a |an |each |every |in |of )[a-z]+ )?(?:usd|\$|dollars?|euros?|eur|rubles?|roubles?|yen|yuan|rmb|rupees?|pounds?|gbp"
    r"|won|examples?|samples?|sentences?|records?|pairs?|questions?|rows?|docs?|documents?|conversations?|steps?|images?|chats?|tickets?"
    r"|messages?|emails?|files?|queries|transcripts?|articles?|posts?|threads?|reviews?"
    r"|(?!per |a |an |each |every |in |of |tokens?\b|context)(?:[a-z-]+ ){0,2}(?:descriptions|abstracts|papers|entries|items|notes|reports"
    r"|summaries|tweets|products|cases|texts|instructions|dialogues|annotations|responses|completions|turns|invoices|contracts|filings"
    r"|recipes|stories)|(?!per |a |an |each |every |in |of )[a-z]+ [a-z]+ (?:chats?|tickets?|conversations?|examples?)|words?|lines?|pages?"
    r"|stars|downloads|(?:concurrent |active )?(?:users?|requests?|sessions?|people|customers)|a month|/month|per month|/mo\b|tok\w*/s"
    r"|tokens? (?:per|a) s\w*|t/s|or best offer|obo\b))")
