"""What the camera and the microphone say about their evidence, in every language.

The table log's events may carry why they were inferred (``inferred`` with
``inferred_msg``) and what the table must settle (``question`` with
``question_msg``): the English sentence beside its message data
(:mod:`referee.text`). The messages are defined here, in the referee, so that
a replay of any log can say them in the viewer's language.
"""

from __future__ import annotations

from .text import define

define({})
