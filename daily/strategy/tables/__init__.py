"""Strategy tables on disk: their file format, where they live, and how far a build is.

- :mod:`~daily.strategy.tables.fileformat`: a versioned JSON header, then the values;
- :mod:`~daily.strategy.tables.lookup`: the tables folder and the tables opened;
- :mod:`~daily.strategy.tables.status`: ready, building (how far, how long) or missing.
"""
