"""PDS-H: the 22 TPC-H-derived queries, run in frazil and in peer engines, validated against
the scale-1 reference answers. See README.md ("make run") for the options."""
