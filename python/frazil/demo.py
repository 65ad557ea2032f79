"""`python -m frazil.demo`: builds a small DataFrame from embedded sample data and prints it."""
from __future__ import annotations

import datetime as dt

import frazil as fz

SAMPLE = {
    "city": ["Oslo", "Lima", "Perth", "Quito", "Nairobi"],
    "country": ["Norway", "Peru", "Australia", "Ecuador", "Kenya"],
    "population_k": [709, 10_092, 2_192, 2_800, 4_397],
    "area_km2": [454.0, 2_672.3, 6_418.0, 372.4, 696.0],
    "coastal": [True, True, True, False, False],
    "founded": [dt.date(1048, 1, 1), dt.date(1535, 1, 18), dt.date(1829, 8, 12),
                dt.date(1534, 12, 6), dt.date(1899, 5, 30)],
}


def main() -> None:
    df = fz.DataFrame(SAMPLE)
    print(df)
    print()
    print("schema:", df.schema)
    print("largest city:", max(df.rows(), key=lambda r: r[2])[0])


if __name__ == "__main__":
    main()
