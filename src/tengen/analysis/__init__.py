"""Analysis engines behind one interface: the built-in MCTS, GTP engines (``kata-analyze``,
``lz-analyze``) and KataGo's JSON analysis engine; whole-game review; `tengen analysis`.

It sits above `match` in the layers: it drives both `gtp` engines and the `ai` search, which
may not import each other, and runs batches on `match.cluster`'s executors. `web` and `cli`
use it through `tengen.analysis.engine.Engine`.
"""
