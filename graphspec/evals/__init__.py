"""Datasets and experiments (issue 29): a spec's graph run over many examples, scored, and two
experiments compared. No Qt: the command line (`superstep eval`) and the studio share it.

`datasets.py` (the files of examples), `scorers.py` (how a run is scored), `experiment.py`
(running the examples), `results.py` (the results file and its summary), `compare.py` (two
experiments side by side).
"""
