"""Every row of Ask's slot table (tools/questions/slots.py) reads its own example: the table documents itself."""
import pytest

from gpusizer.tools.questions.reading import read_question
from gpusizer.tools.questions.slots import SLOTS

EXAMPLES = sorted({(row.kind, row.example) for row in SLOTS})


@pytest.mark.parametrize("kind, example", EXAMPLES, ids=[f"{kind}: {example[:40]}" for kind, example in EXAMPLES])
def test_a_slot_row_reads_the_kind_of_its_example(catalog, kind, example):
    reading = read_question(example, catalog)
    assert getattr(reading, kind) is not None
    assert any(span.kind == kind for span in reading.spans), [span.meaning for span in reading.spans]
