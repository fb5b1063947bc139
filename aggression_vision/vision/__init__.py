"""Photo -> map: loading, page, ink, regions, adjacency, marks, OCR, pipeline.

Importing this package imports nothing heavy; the stage modules import OpenCV.
"""
