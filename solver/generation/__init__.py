"""Generation: new puzzles at a level, and practice puzzles that need one technique.

The classic, the fast case (boxes and nothing else):

- :mod:`~solver.generation.classic`: :func:`generate` (a size, a level, a symmetry, a seed);
- :mod:`~solver.generation.classic_dig`: its digger (clues removed by symmetry orbits while
  the puzzle stays unique and at most the level asked);
- practice: :mod:`~solver.generation.practice` (:func:`make_requiring`), dug by
  :mod:`~solver.generation.practice_dig` or, for the rarest techniques, grown from the seed
  puzzles of :mod:`~solver.generation.practice_seeds` (``practice_seeds.txt`` beside it).

Any :class:`~solver.rules.Rules` (Diagonal, Jigsaw, Killer and what the rules add):

- :mod:`~solver.generation.general`: :func:`generate_variant` (fill, draw regions or cages,
  dig, level by the general logic engine);
- :mod:`~solver.generation.general_dig`: its digger and the level of a dug puzzle;
- :mod:`~solver.generation.jigsaw_regions`: random irregular regions for Jigsaw;
- :mod:`~solver.generation.general_practice`: practice puzzles for the techniques only the
  general engine has (Killer's cage techniques).

Every answer is a pure function of the arguments: randomness comes in as a seed. The
practice modules are imported where they are used, not here, so that
``python -m solver.generation.practice_seeds`` runs its module once.
"""

from solver.generation.classic import (
    SYMMETRIES,
    Generated,
    GenerationFailed,
    generate,
    is_symmetric,
    supported_levels,
)
from solver.generation.general import (
    VariantGenerated,
    VariantGenerationFailed,
    generate_variant,
    supported_variant_levels,
)

__all__ = [
    "SYMMETRIES",
    "Generated",
    "GenerationFailed",
    "VariantGenerated",
    "VariantGenerationFailed",
    "generate",
    "generate_variant",
    "is_symmetric",
    "supported_levels",
    "supported_variant_levels",
]
