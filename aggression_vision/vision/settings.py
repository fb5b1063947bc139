"""Every threshold of the region stage, with its unit, in one place.

Lengths are expressed relative to something the reader measures on the photo
(the working image's long side, or the typical border line width), never as
fixed pixel counts, so the same settings serve a 1 MP and a 50 MP photo.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class ReaderSettings:
    """Tunable parameters of the photo reader (page, ink, regions, adjacency).

    Attributes
    ----------
    max_pixels : int
        Photos with more pixels are refused (decompression-bomb guard).
    working_long_side : int
        Long side, in pixels, of the working image the page is resampled to.
    decode_oversampling : float
        A JPEG is decoded at a reduced scale when its long side stays at least
        this many times the working long side (the sheet may fill only part of
        the photo).
    page_min_area : float
        Smallest sheet accepted by the page finder, as a fraction of the photo area.
    page_max_area : float
        Largest sheet accepted, as a fraction of the photo area (a quadrilateral
        touching every photo edge is the photo, not a sheet).
    page_by_lines : bool
        When no closed outline of the sheet is found, look for its four
        straight edges (corners may lie outside the photo) ...
    page_edge_min_length : float
        ... each seen over at least this fraction of the photo's long side,
        the corners at most ``page_corner_outside`` of it outside the photo ...
    page_corner_outside : float
        ... (see above) ...
    page_outside_bright : float
        ... and refuse four edges when over ``page_outside_fraction`` of the
        photo outside them is at least this fraction of the paper's
        brightness (paper goes on).
    page_outside_fraction : float
        (see above)
    page_by_frame : bool
        Failing four edges, look for three closed by the frame's side (a tilted
        sheet running out of the photo on one side), kept when the
        quadrilateral holds ``page_frame_bright`` of the photo's largest
        bright area (not a book's page that goes on beyond the edges found).
    page_frame_bright : float
        See ``page_by_frame``.
    page_frame_min_turn : float
        Degrees: the two sides meeting the frame must turn towards each other
        by at least this much (perspective to undo); about parallel, the
        whole photo is as good a working area.
    page_analysis_px : int
        The page finder looks for the sheet in a copy of the photo this many pixels
        on its long side (its edge tests are tuned at that scale). The ``page_*_px``
        settings below are pixels of that analysis image.
    page_prescale : float
        Before the page finder, the photo is shrunk (area averaging) to at most
        this many times ``page_analysis_px`` on its long side, cheaply, once.
    page_canny_low, page_canny_high : float
        Canny hysteresis thresholds (grey levels, analysis image blurred 5x5) of
        the sheet's outline and straight-edge finders: paper edges on a table
        can be faint.
    page_outline_approx : float
        An outline's convex hull is simplified to a quadrilateral with this
        tolerance, as a fraction of the hull's perimeter.
    page_bright_close : float
        Writing and ruling inside the bright area are closed with a square this
        fraction of the analysis image's long side (at least 3 px, odd).
    page_bright_fill : float
        The largest bright area must fill at least this fraction of the
        quadrilateral fitted to it (not an L-shaped area).
    page_paper_saturation : float
        Paper score of a pixel: brightness minus this times saturation (HSV,
        0-255): paper is bright and weakly coloured.
    page_step_far_px : float
        A sheet side is a paper edge when the brightness step between
        +- this many pixels (analysis image) across it ...
    page_step_min : float
        ... is at least this many grey levels (0-255, blurred 3x3) ...
    page_step_near_px : float
        ... and the step between +- this many pixels, at the best offset
        across the side (the found line may lie a few pixels off the edge) ...
    page_step_crisp : float
        ... is at least this fraction of the far step (a crisp edge, not the
        soft edge of a shadow).
    page_side_search_px : float
        Offsets searched (every half pixel, analysis image) for the crisp step
        of a fitted outline's side, on either side of it.
    page_line_search_px : float
        Offsets searched (every pixel) for the crisp step of a straight-edge
        segment; a Hough segment lies on the edge itself.
    page_line_dip : float
        A straight-edge segment is no paper edge when the brightness profile
        across it (+- ``page_step_far_px``) dips this fraction of the step
        below its darker side: a dark line along the step.
    page_hough_votes : int
        Edge pixels on a straight line for the Hough transform to report it
        (analysis image) ...
    page_hough_gap_px : int
        ... bridging gaps up to this many pixels along it.
    page_max_segments : int
        Only the first this many Hough segments are tested as paper edges ...
    page_quick_step : float
        ... of those whose brightness step at +- ``page_step_far_px``, taken
        roughly at a few points, is at least this fraction of
        ``page_step_min`` (the ruling of squared or Seyes paper gives many
        segments with no step); 0: all segments.
    page_merge_cos : float
        Two paper-edge segments are the same edge when their normals' cosine
        exceeds this (within 5.7 degrees) ...
    page_merge_px : float
        ... and one lies within this many pixels of the other's line.
    page_max_edges : int
        The longest this many edges are combined four at a time into sheets.
    page_turn_cos : float
        Neighbouring sides' paper normals must have a cosine below this
        (turn by more than 60 degrees) ...
    page_opposite_cos : float
        ... and opposite sides' below this (face each other within 37 degrees).
    page_beyond_near_px, page_beyond_far_px : int
        Four edges are refused when, in the band this many pixels beyond a
        side (analysis image, both ends included) ...
    page_beyond_seen : float
        ... of which at least this fraction lies inside the photo ...
    page_beyond_paper : float
        ... the median brightness is at least this fraction of the paper's just
        inside the side (paper goes on beyond a fold or a shadow's edge) ...
    page_beyond_stroke : float
        ... and pixels darker than this fraction of that median ...
    page_beyond_stroke_fraction : float
        ... are more than this fraction of the band (strokes of a drawing cut
        by the side) ...
    page_beyond_line_px, page_beyond_line_contrast : int, float
        ... or thin dark lines (a black-hat of this many pixels above this
        many grey levels: light pencil, printed ruling) ...
    page_beyond_line_fraction : float
        ... are more than this fraction of it (the side is a grid line along
        a glare's or a shadow's edge); 0: off.
    page_warp_oversampling : float
        The photo is shrunk before the perspective warp to this many times the
        working long side over the sheet's longest side (a warp that shrinks a
        lot aliases thin lines away).
    page_frame_margin : float
        A sheet corner closer than this fraction of the long side to the photo's
        border lies on the border; two such corners mean a cut-off sheet.
    ruling_perspective : float
        A photo whose sheet was not found is rectified by its printed ruling when
        the ruling's straight lines meet (their vanishing points, :func:`ruling_homography`)
        near enough that the scale changes by more than this share between the
        working image's centre and a corner: the lines of lined, squared and Seyes
        paper then run straight and parallel across the working image (the ruling
        search looks for parallel families). 0 turns it off. (Region and marks
        stages, the 750 dev and validation photos: 66 of the 261 photos whose sheet
        was not found are rectified so, 64 of them of lined, squared or Seyes paper,
        2 of plain paper (a streaked table); region F1 95.27% -> 96.08%, matched
        countries +59, predicted -184, armies +91 (s3 0, r3 +4, dev3 +26, fresh +9,
        fresh2 +52), owner +55, conquered +84, letters +35; s3 loses 8 matched
        countries, tune and dev2 are unchanged.)
    ruling_perspective_px, ruling_perspective_length : int, float
        The ruling's lines are looked for (thin dark lines, black top-hat; Hough
        segments) at this many pixels on the long side, at least this share of the
        shorter side long.
    ruling_perspective_lines, ruling_perspective_tolerance : int, float
        A family of lines is at least this many segments pointing within this many
        degrees of one vanishing point (RANSAC, then least squares); a second
        family more than ``ruling_perspective_apart`` degrees away from the first
        gives the sheet's other direction (else it is taken square to the first).
    ruling_perspective_grow : float
        No rectification that would make the working image's extent grow more than
        this many times (a vanishing line near the photo).
    ruling_perspective_level, ruling_perspective_strokes : float
        Percentiles of the black top-hat: thin lines are the pixels above the first
        (at least 6 grey levels), the drawing's darkest strokes those above the second.
    ruling_perspective_apart : float
        Degrees (modulo 180) a second family must lie from the first.
    ruling_perspective_keep : float
        The working image keeps the convex hull of the thin lines and darkest strokes
        grown by this factor about its middle (the sheet and its drawing, not the whole
        table seen in perspective).
    page_margin : float
        Band removed along the rectified sheet's edges, as a fraction of its long
        side (paper edge shadows and the torn/curled border).
    page_crop_max : float
        When no sheet is rectified, the working image is cropped to the box of
        the sheet's area (``paper_area``'s hull) when that box's long side is at
        most this fraction of the photo's (more pixels for the drawing); 0: off.
    page_crop_pad : float
        Padding around that box, as a fraction of the photo's long side.
    page_crop_dark : float
        The crop needs a clearly darker background: at most
        ``page_crop_outside`` of the photo outside the sheet's area may score
        this fraction of the sheet's paper level (glare, a bright table or
        paper outside a wrong area fail).
    page_crop_outside : float
        See ``page_crop_dark``.
    page_crop_stroke : float
        ... and the drawing must lie in the box: pixels darker by this much
        than their surroundings (a black-hat of ``page_crop_stroke_px``) outside
        it may be at most ``page_crop_beyond`` of those inside (a shadowed part
        of the sheet outside the bright area holds strokes).
    page_crop_stroke_px : int
        See ``page_crop_stroke``.
    page_crop_beyond : float
        See ``page_crop_stroke``.
    background_kernel : float
        Size of the paper-background estimate (morphological closing), as a
        fraction of the working long side; larger than any stroke, smaller than
        a shadow's gradient.
    paper_min_brightness : float
        Areas (wider than a stroke) darker than this fraction of the local
        paper estimate are not paper: the table or background around it.
    paper_blob_max : float
        A dark area wholly inside the paper smaller than this fraction of the
        image is a heavy stroke (felt pen, a filled symbol), so paper, not table.
    ink_darkness : float
        A pixel is ink when it is at least this much darker than the local
        paper (0..1, fraction of the paper's brightness).
    ink_faint_median : float
        A drawing whose ink's median darkness is below this is faint ...
    ink_faint_ratio : float
        ... and on a page without printed ruling, its ink counts from this
        fraction of that median darkness (when below ``ink_darkness``); 0: off ...
    ink_darkness_plain : float
        ... but never from below this darkness ...
    ink_faint_max_gain : float
        ... and only when the ink it adds farther than a line width from the
        ink found before is at most this fraction of it (more is unseen
        ruling or texture).
    ink_faint_guard : float
        ... and when no printed ruling is found in the ink (sparse) from this
        fraction of that level: a faint print's lines are broken into dashes
        at the level itself, and seen whole a little below it (1: at the level).
    ink_lines_least : float
        On a page without printed ruling, a drawing is also faint when the
        median darkness of its lines (its pieces longer than
        ``writing_max_extent``, away from the image's edge) is below
        ``ink_faint_median``: when those hold at least this fraction of the
        ink (0: off) ...
    ink_lines_lighter : float
        ... and their median is below this fraction of all the ink's (writing
        clearly darker than the map lifts that one) ...
    ink_lines_edge : float
        ... a piece within this many line widths of the image's edge being no
        line (the sheet's edge, the table's shadow).
    ink_faint_gaps_gain : float
        On a page without printed ruling, a drawing that is not faint (by
        ``ink_faint_median``) but whose faint level (``ink_faint_ratio`` of
        its median) is still below ``ink_darkness`` gets only the light
        stretches that bridge its gaps where the light is strong (glare, the
        lit side of the sheet: paper at least ``ruling_glare_paper`` bright
        or ``ruling_glare_ratio`` times the sheet's median): the pieces above
        that level farther than a line width from its ink (at least a line
        width long), with their joins to it (its strokes do not grow wider),
        when all such pieces are at most this fraction of the ink (more:
        unseen ruling or texture); 0: off ...
    ink_gaps_parallel : float
        ... and when at most this fraction of them lies in straight pieces
        running one way (printed ruling too light for the ruling search);
        also for ``ink_glare_gain``.
    ink_glare_paper : float
        Paper at least this bright (0..255) is washed out by glare: the
        camera clips it, and with it the lightest stretches of the drawing ...
    ink_glare_darkness : float
        ... there, pixels at least this dark that join the ink found (or are
        joined to it through others) are its light stretches ...
    ink_glare_gain : float
        ... added (with their joins to the ink, not the strokes' widening)
        when those farther than a line width from the ink are at most this
        fraction of it; 0: off.
    ink_faint_ruled_median : float
        On a page with printed ruling, a drawing whose ink's median darkness
        (off the ruling) is below this is faint: its ink counts from
        ``ruling_darkness`` (the ruling search's level) off the ruling; 0: off ...
    ink_faint_ruled_gain : float
        ... unless the ink it adds farther than a line width from the drawing
        is more than this fraction of it (printed lines the search missed) ...
    ink_faint_ruled_extent : float
        ... and without the added pieces (away from the drawing) at least this
        many line widths long (printed lines, not a border's light stretch).
    ink_off_ruling_level : float
        On a rectified page with printed ruling, a drawing's light stretches
        are also looked for on the darkness with the ruling taken off (the
        grey opening by lines along the ruling's two directions; see
        ``ink._off_ruling_stretches``): pixels at least this much darker than
        that opening (0: off) ...
    ink_off_ruling_length : float
        ... whose lines are this fraction of the image's long side long
        (longer than a hand-drawn stroke keeps straight, shorter than the
        ruling's lines) ...
    ink_off_ruling_spread : float
        ... and also turned by up to this many degrees from the ruling's
        directions ...
    ink_off_ruling_step : float
        ... in steps of this many degrees (0 spread: not turned) ...
    ink_off_ruling_dense : float
        ... where those pixels cover less than this fraction of a window a few
        strokes wide (``ink_density``: texture is no drawing) ...
    ink_off_ruling_extent : float
        ... in pieces at least this many line widths long, farther than a line
        width from the ink found (with their joins to it) ...
    ink_off_ruling_on_lines : float
        ... but not those lying more than this fraction on the printed lines ...
    ink_off_ruling_on_extent : float
        ... and at least this many line widths long (a stretch of a printed
        line darker than the rest of it).
    ink_off_ruling_left : float
        Nothing is added when more than this fraction of the ruling's pixels
        away from the ink ...
    ink_off_ruling_left_level : float
        ... is darker than the opening by this much (lines that bend or
        converge: the opening does not model them) ...
    ink_off_ruling_most : float
        ... or when the pixels to add are more than this fraction of the
        image (the ruling, not a drawing) ...
    ink_off_ruling_parallel : float
        ... or more than this fraction of them lies in straight pieces running
        one way (ruling the opening left).
    ink_darkness_strong : float
        Seed darkness for hysteresis: ink components must contain a pixel at
        least this dark.
    ink_weak_extent : float
        ... or be at least this many line widths long (a light pencil stroke).
    ink_min_blob : float
        Ink components smaller than this (in squared line widths) are noise.
    ink_pink_red : float
        Ink whose darkness in the red channel is below this fraction of its
        grey darkness is pink print (the margin line of ruled paper), not drawing.
    margin_line_ratio : float
        A straight line at least ``margin_line_length`` of the image's long
        side long, with ink along ``margin_line_cover`` of its course over the
        sheet (its pieces found one line across gaps up to ``margin_line_gap``
        of the long side: drawing along it, breaks in the faint print),
        whose ink's ratio of red-channel to grey darkness (the lower third of
        it: a border drawn along a stretch keeps its own) is below this
        fraction of the ink's median is the margin line, its pink faded by
        blur and the photo's colour sampling (0: off) ...
    margin_line_pixel : float
        ... and its pixels whose ratio is below this fraction of the ink's
        (strokes drawn across it keep theirs), with its faint dashes wholly in
        its band, are not ink.
    margin_line_length : float
        See ``margin_line_ratio``.
    margin_line_cover : float
        See ``margin_line_ratio``.
    margin_line_gap : float
        See ``margin_line_ratio``.
    margin_line_darker : float
        Ink along the margin line more than this many times darker than the
        line's median (a border drawn on it) stays ink.
    margin_line_band : float
        The margin line's ink goes within this fraction of the image's long
        side to either side of it (5 pixels of the 1400-pixel working image,
        at least 2: a bent page bends it a little); its course is measured
        within half that.
    grid_min_lines : int
        A family of parallel straight lines is a printed paper ruling only when
        at least this many lines are regularly spaced in a strip.
    grid_run : float
        Straight runs at least this long (fraction of the long side) are
        candidates for printed ruling lines.
    grid_fan : tuple of float
        Angles (degrees) around a ruling family's main direction at which its
        lines are also removed (perspective fans them out).
    grid_min_coverage : float
        A ruling line is covered by straight runs over at least this fraction
        of a strip's width.
    grid_strips : int
        The page is cut into this many strips across the lines to look for a
        ruling.
    grid_min_strips : int
        A ruling must show in at least this many strips.
    grid_line_steps : float
        A printed ruling line runs across the sheet: at least this many times
        the spacing of the lines long (a sudoku's lines are 9 cells long).
    grid_min_long_lines : int
        ... and at least this many lines are that long.
    grid_line_bridge : float
        On the whole page, breaks along a line up to this many line spacings
        long do not cut it short (faint print, glare, pencil over it); a
        drawn grid still ends where its last cell ends.
    grid_bridge_min_ink : float
        A family found only across such breaks is a ruling when at least this
        fraction of its lines' pixels is ink, i.e. darker than ``ink_darkness``
        (where the lines are mostly too faint to be ink they cut no country,
        and the family's ink is mostly drawing along them; pieces of a line too
        short to be kept alone count: where they touch the drawing they are
        kept, and cut its countries).
    grid_max_step : float
        Printed rulings are dense: their spacing is at most this fraction of
        the long side (a sudoku's or a hand-drawn grid's is larger).
    grid_darker : float
        Ink darker than this many times the ruling's median darkness is drawn
        over the ruling and kept ...
    grid_darker_extra : float
        ... or darker than the ruling's median darkness plus this (0..1) ...
    grid_darker_extra_uniform : float
        ... or plus only this on a ruling family whose lines are printed alike
        (so light pencil drawn along a line is kept) ...
    grid_darker_spread : float
        ... or this many times the interquartile range of the family's crest
        darkness when that is more (real photos' ruling varies), unless ...
    grid_two_level_fraction : float
        ... at least this fraction of the family's long lines ...
    grid_two_level_extent : float
        ... (at least this long, fraction of the long side) ...
    grid_two_level_ratio : float
        ... have a crest this many times darker than the typical line's (the
        darker lines of Seyes paper).
    grid_darker_crest : float
        Ink kept as drawn along a ruling line is also darker than this many
        times the median darkness of the family's crests (the darkest pixels
        across its lines) in the page or tile searched: in a shadow the
        crests stand out more from their light rims (0: no such floor).
    ruling_darkness : float
        Darkness threshold of the (more sensitive) mask printed ruling is
        looked for in.
    ruling_contrast_max_gain : float
        On ruled paper, in a glare where a high percentile of the darkness
        (the ruling's crests) is lower than over most of the page, the ink is
        read again with the darkness raised to match, at most this many times
        (1: off) ...
    ruling_glare_paper : float
        ... glare: where the paper is at least this bright (fraction of white) ...
    ruling_glare_ratio : float
        ... and this many times brighter than the median over the page ...
    ruling_contrast_percentile : float
        ... that percentile (per tile: ruling covers more than 100 - this
        percent of the paper) ...
    ruling_contrast_tiles : int
        ... in this many tiles per side ...
    ruling_contrast_min_gain : float
        ... and only when somewhere it would be raised at least this many times.
    ruling_max_density : float
        Ink denser than this (fraction of a window a few strokes wide) is
        texture, not ruling, and is left out of the ruling search.
    ruling_texture_density : float
        Ink denser than this (but not ``ruling_max_density``) can be ruling
        (Seyes paper's close lines beside a map's borders), but it does not
        set the lines' direction, is no evidence of a ruling in a tile and
        does not count in the thickness of the ruling's lines (junctions,
        numbers, borders along a line).
    ruling_tiles : int
        Ruling is also looked for in n x n overlapping tiles (each half the
        page's size for n = 3), where perspective fans its lines out less.
    ruling_fine_tiles : int
        Then in m x m smaller tiles, for families not already seen in the
        tiles around them (the sparse verticals of Seyes paper under strong
        perspective); 0 turns this off.
    ruling_known_angle : float
        A family within this many degrees of one already seen around a fine
        tile is not looked at again there (a second look at the same lines
        would take light pencil drawn along them).
    ruling_relaxed_lines : int
        Once a ruling is seen on the page, a tile where it was missed needs
        only this many regularly spaced lines (and shorter ones).
    ruling_residual_tiles : int
        Once a squared ruling is seen on the page, the ink left away from it
        is searched again in r x r overlapping tiles for families turned by
        more than ``ruling_known_angle`` from those seen around (a curled
        corner bends the ruling away from them); 0 turns this off.
    ruling_threads : int
        The independent searches of the tiles run in this many threads (the
        result is the same as with 1). 2: on an idle 2-core machine the
        region stage's wall time is a little shorter (median 1.02 s against
        1.05 s, p90 1.32 s against 1.52 s), at about 10% more CPU; on a busy
        machine (cores already in use) 2 threads measured slower.
    ruling_residual_reach : int
        Pixels around the ruling found left out of that search (the rims of
        its lines).
    ruling_residual_relaxed : bool
        That search needs only the evidence of a tile where the ruling was
        missed (``ruling_relaxed_lines``).
    ruling_residual_bridge : float
        Gaps along a line up to this fraction of the page's long side do not
        break it in that search (where the crossing family's lines were taken
        out).
    ruling_residual_pitch : float
        That search takes only a lattice whose line step is within this
        fraction of the step of the ruling found on the page (0: any step).
    ruling_new_darker : float
        A family of lines that a tile of the ruling search sees is no ruling
        when the median darkness of its pixels is above this many times that
        of the ruling the search of the whole page found: a map's parallel
        borders drawn in ink on lined paper (a grid of countries, across the
        printed lines or along them) look like a family in a tile, but
        printed lines, even those only a tile sees (perspective fans them
        out), are as light as the rest of the print. 0 turns this off.
    ruling_new_min_share : float
        ... only when the page's ruling covers at least this fraction of the
        page (below it the print is mostly too faint to be ink, and the few
        pixels taken, where it crosses the drawing, do not give its level).
    ruling_max_skew : float
        Degrees: the second family of a ruling is looked for this far from
        the right angle to the first (perspective turns it).
    ruling_thick_ratio : float
        Ink across a ruling line thicker than this many times the ruling's
        thickness ...
    ruling_thick_extra : float
        ... plus this many pixels is a drawn stroke along or across the line,
        and is kept.
    ruling_thick_length : float
        ... over a stretch along the line at least this long (fraction of the
        long side; 0: any length).
    ruling_crossings : bool
        Where two ruling families cross, each one's thickness test leaves the
        other's lines out (else every crossing looks like drawing).
    ruling_speck : int
        Pixels: ink fragments left by ruling removal smaller than this are dropped.
    ruling_restore : int
        Pixels: erased ruling this close to remaining ink is given back (the
        crossings of drawn strokes and ruling lines, strokes along a line);
        on a thin straight ruling line only with the ink across the line
        from it, not along it (a stroke's end, the next letter: ticks).
    ruling_colour_min : float
        When the ruling's median colour ``(red darkness - blue darkness) /
        darkness`` is at least this far from grey (blue or violet print), its
        pixels nearer to grey than ``ruling_colour_keep`` of that colour are
        drawing (pencil along a grid line); 0: off.
    ruling_colour_keep : float
        See ``ruling_colour_min``.
    ruling_colour_pixels : int
        The colour test needs at least this many dark ruling pixels.
    ruling_colour_weak : float
        A print coloured less than ``ruling_colour_min`` but at least this
        (pale green or grey-blue squares): its grey pixels are drawing only
        where they touch the drawing left after ruling removal, and not within
        ``ruling_colour_cross`` pixels of ink coloured the other way at least
        as strongly as the print (where a blue line crosses a red one the
        mixture looks grey); 0: off.
    ruling_colour_cross : int
        See ``ruling_colour_weak``.
    ruling_grey_length : float
        Along a coloured ruling family's lines, a stretch this long (fraction
        of the long side) whose ink is on average nearer to grey than
        ``ruling_grey_keep`` of the family's colour is drawing (pencil along
        or in line with the printed lines), when the family's ink fills at
        least ``ruling_grey_fill`` of it; 0: off (see ``ink._grey_stretches``).
    ruling_grey_fill : float
        See ``ruling_grey_length``.
    ruling_grey_keep : float
        See ``ruling_grey_length``.
    ruling_grey_min_colour : float
        Only families at least this coloured (their median colour) have grey
        stretches.
    ruling_grey_pixel : float
        Each pixel of a grey stretch is nearer to grey than this many times
        the family's colour (see ``ruling_grey_length``).
    ruling_grey_darker : float
        Each pixel of a grey stretch is at least this many times as dark as
        the family's median pixel; 0: no such test.
    ruling_grey_run : float
        A grey stretch runs on for at least this many times
        ``ruling_grey_length`` beyond its window (its windows' centres); 0: any.
    ruling_grey_sample : int
        Grey stretches are measured on every this many pixels along the lines.
    ruling_grey_band : float
        The neighbouring lines of a grey stretch are looked for over this
        many line steps around one step away on either side.
    ruling_lattice_tolerance : float
        A straight run of a ruling family whose neighbouring runs above and
        below (across the lines, in one column) are one line step apart,
        within this many steps, lies between two lines of the lattice: a
        drawn stroke, not ruling (see ``_off_lattice``); 0: off.
    paper_area_max : float
        The sheet's area (hull of the largest bright, weakly coloured area) is
        used when it covers at most this fraction of the working image (and
        at least ``page_min_area``); 0: off. Ink outside it is no drawing.
    paper_area_outside : float
        ... and when at most this fraction of the image outside it is as
        bright as paper (``page_outside_bright`` of the sheet's level).
    paper_area_inside : float
        Ink components with less than this fraction of their pixels on the
        sheet are dropped.
    paper_area_crossing : float
        Nothing is dropped when components crossing the sheet area's side
        hold this fraction of the ink outside it (a drawing runs on into a
        shadow on the sheet).
    paper_area_hull : bool
        Components (almost, see ``paper_area_inside``) wholly within the
        convex hull of the largest component (almost) wholly on the sheet
        are kept: the sheet is convex, so ink inside the map's outline lies
        on it, though a shadow made its paper too dark for the sheet's area
        (a pencil number and letter in a country under the shadow).
    paper_area_rectified : bool
        Whether ink outside the sheet's area is dropped also when the sheet
        was found and rectified (the working image is then the sheet: its
        largest bright area may be only a glare spot on it, and the drawing
        beyond that spot would be dropped). False: only on an unrectified
        working image (the whole photo, the table around the sheet).
    gap_close : float
        Border gaps up to this many line widths are closed.
    gap_end_min_branch : float
        Line widths: a loose line end at least this long from its junction
        is joined to another such loose end it faces up to ``gap_close``
        line widths away (tip to tip), which the closing alone leaves open
        beyond about two line widths (0: off). The end faced must be a drawn
        line's, no thicker than ``bridge_max_thickness`` (not a blob of
        writing welded by closing); an end facing a line is left to the
        bridging.
    gap_end_cone : float
        Degrees aside of a loose end's direction it may be joined.
    gap_step_edge : float
        Within this many line widths of the working image's edge the
        diagonal steps of what closing added are left open (a notebook's
        binding there: a pocket sealed between its coils kept a piece of
        it as border, paper photo ex08_writer0035).
    bridge_reach : float
        A loose end of a border is continued up to this many line widths to
        the ink it points at (0: never).
    bridge_min_branch : float
        ... when it ends a line at least this many line widths long (shorter:
        a tick or a spur of the skeleton) ...
    bridge_cone : float
        ... to ink within this many degrees of its direction ...
    bridge_min_thickness : float
        ... when that line is at least this many line widths thick (what is
        left of printed ruling is thinner than drawing) ...
    bridge_max_thickness : float
        ... and at most this many (thicker: a shadow or the sheet's edge).
    bridge_max_on_ruling : float
        A bridge that runs along removed printed ruling for more than this
        fraction of its length is not drawn (1: no limit) ...
    bridge_end_to_end_thickness : float
        ... unless it joins two loose ends and the line it continues is at
        least this many line widths thick (a border drawn along a printed
        line loses stretches with it; what is left of the ruling is thinner).
    bridge_country_inradius : float
        A paper area closed by a bridge is kept closed only when it holds a
        disc of this radius, in line widths (else it is most often a printed
        grid square closed to a remnant of ruling).
    step_seal_inradius : float
        Two 4-connected paper areas that each hold a disc of this radius, in
        line widths, and meet only through the diagonal step of a one-pixel
        thin line are kept apart (the step is filled): a faint diagonal
        border (0: off; countries stay 8-connected paper).
    writing_max_extent : float
        An ink component whose bounding box long side is below this fraction of
        the map's extent is writing, not a border.
    fragment_min_extent : float
        A writing-sized ink piece at least this many line widths long ...
    fragment_max_fill : float
        ... whose area is at most this many times its length times the line
        width (a line, not a digit's bent strokes) ...
    fragment_max_width : float
        ... and that fits a rotated box this many line widths wide is a piece
        of border cut off by gaps (faint pencil), not writing (0: off).
    fragment_bent_extent : float
        ... or that is at least this many line widths long, whatever its
        width (a single stroke that bends, longer than a number: 0: off).
    country_min_inradius : float
        A region must contain a disc of this radius, in line widths, to be a
        country (smaller ones are digit loops or slivers of a double border).
    country_min_area : float
        ... and an area of at least this many squared line widths.
    country_min_text_area : float
        ... and, when no writing lies inside it, an area of at least this many
        squares of the page's writing height (``writing_height``): smaller
        empty ones are the inside of a letter or digit welded to a border (an
        O, D, 0, 6, 8 or 9), or a sliver no number fits in; their paper goes
        to the countries around them. 0: off.
    empty_loop_inradius, empty_loop_darkness, empty_loop_depth, empty_loop_size : float
        A small ink component around a hole that holds a disc of
        ``country_min_inradius`` is an island country, unless its hole is bare
        paper (no ink a line width in from the loop, its darkness at most
        ``empty_loop_darkness`` above the paper's around it), none of its ink
        lies deeper than ``empty_loop_depth`` line widths inside its outline
        (a ring with its number welded to it from within is an island), it is
        no larger than ``empty_loop_size`` times the writing's typical size
        (the median extent of the small components longer than two line
        widths) and its hole holds no disc of ``empty_loop_inradius`` line
        widths: then it is the loop of a digit
        or a letter (the 0 of a 10, a D written large with a thin pen: dev3
        061097, 061028, 061075). An island's number or letter is written inside
        it, but an unoccupied island on an unlettered page is empty: the
        smallest island countries of the 750 dev and validation photos hold a
        disc of 5.2 line widths of the synthetic pen, yet three unoccupied ones
        measured under 4.5 line widths of the page's estimate (dev3 061108,
        061234: then larger than the writing; 061240, as small as its writing,
        is lost). Region and marks stages over the 750 photos against afadcf8:
        armies +6, letters +22, matched countries -1, owner -2 (fresh 020066: a
        10 read right puts a player over 100 and the totals rule moves four
        underlines), conquered -2. ``empty_loop_inradius`` 0: off.
    enclave_ring_inradius, enclave_ring_hole : float
        A small ink piece with a hole is a ring around a country (an enclave
        drawn small, its number welded to the ring) and not writing, though
        its hole holds no disc of ``country_min_inradius``, when the piece
        with its hole filled holds a disc of ``enclave_ring_inradius`` times
        that radius and its hole is at least ``enclave_ring_hole`` of it (the
        loops of a digit are much smaller); it stays a border after gap
        closing fills its hole. 0: off.
    frame_min_enclosed : int
        A paper area around this many countries or more is a frame (the
        sheet's margin, a frame drawn around the map): sea, not a country.
    adjacency_min_length : float
        Two countries are adjacent when their common border is at least this many
        line widths long (a meeting at a point yields about 1-2).
    adjacency_reach : float
        How far, in line widths, a country is grown across the border ink to meet
        its neighbours (a double-drawn border must be bridged).
    adjacency_max_gap : float
        Border counts towards adjacency only where the two countries are at
        most this many line widths from it (a line or a double line between
        them, not a blob of ink at a junction).
    corner_contact_length : float
        A boundary shorter than this many line widths between two countries
        that sit diagonally around a four-country junction ...
    corner_contact_ratio : float
        ... and shorter than this fraction of the junction's other sides is a
        meeting at a point smudged by ink, not a border. (7.0 and 0.6 until the
        sixty-second session: they also dropped short real borders between two
        T-junctions, which the synthetic maps draw at least six line widths
        long. The diagonals of the real sudoku photos that this step drops measure
        4.1-5.8 line widths, 0.30-0.35 of the junction's shortest side.)
    corner_contact_apart : float
        ... unless the two countries come closer than this many line widths:
        a short border between two T-junctions close together (the synthetic
        maps' borders between junctions 4-6 line widths apart look like such a
        junction of four) separates them by one line, a meeting at a point by
        the junction's diagonal. (Seventieth session: of the pairs this step
        dropped on tune, r3, s3 and dev2, 39 were truly adjacent, 32 of them
        with their countries 0.7-1.9 line widths apart, and 7 not, 6 of them
        2.1-2.4 apart; the real sudoku diagonals it drops are 2.4-2.7 apart but
        one, 0.5, on the photo where a cell is missed.) 0 turns it off.
    barrier_inradius : float
        Paper areas that are not countries but hold a disc of this radius (in
        line widths) stop the growth of countries (only thinner slivers, as
        between the strokes of a double border, are bridged).
    stub_country_inradius : float
        Inscribed radius, in line widths, of the paper areas taken as
        countries when looking for writing welded to borders (a big digit
        leaves little room around it in its country).
    protrusion_distance : float
        Border ink farther than this many line widths from every boundary
        between countries sticks out into a country: it is writing touching
        a border.
    protrusion_root : float
        Border ink farther than this many line widths from every boundary,
        in a writing-sized piece that holds a protrusion, is writing too (the
        strokes that join a welded digit to its border). 0 turns it off.
    protrusion_root_extent : float
        Line widths: a longer piece of that ink is a border's ragged edge
        (a welded digit can be 15 line widths tall).
    protrusion_root_tip : float
        Square line widths: a smaller protrusion (a tick, a corner's
        overshoot) is not followed back to its border.
    protrusion_root_sea : float
        Line widths: a piece mostly this near the sea is not followed back
        (a printed title above a sheet's frame line is no country's number).
    protrusion_root_paper : float
        A piece whose box, widened by the reach of the extension, holds less
        than this share of countries' paper is not followed back (printed
        text, a patterned background: ink with little paper between its
        strokes).
    welded_writing : bool
        The protrusion test first gives each country the paper that gap
        closing filled, or left in pockets, touching that country only (a
        digit welded to a border then sticks out of its country).
    welded_stroke_depth : float
        Writing heights: the strokes of a number welded to a border are
        taken off the borders (:func:`~aggression_vision.vision.regions.welded_strokes`)
        where they stick out at least this far from every straight stretch
        of border line. 0 turns it off.
    welded_stroke_line : float
        Writing heights: border ink that a straight line this long fits in
        is border line, not a stroke of a number.
    welded_stroke_reach : float
        Writing heights: strokes are looked for this far around the writing
        (the rest of the number) that touches the border.
    welded_stroke_touch : float
        Line widths within which a stroke touches that writing, and that
        writing the borders.
    welded_stroke_area : float
        Square line widths: the least area of that writing and of a stroke.
    welded_stroke_extent : float
        Writing heights: the longest stroke (its box's longer side).
    welded_stroke_share : float
        The least share of the countries' paper round a stroke that is the
        writing's own country's (the paper outside the map counting as
        another's): a stroke sticks into its country, a stretch of border
        has a country on either side.
    welded_stroke_clean : float
        Writing heights: a country that holds writing this tall touching no
        border has its number already; its strokes are not looked for.
    swallowed_min_area : float
        A paper area that holds a country (a disc of ``stub_country_inradius``
        and this many squared line widths) before gap closing and none after
        keeps its borders unclosed: closing filled the spaces between a big
        digit and the border it touches. Twice ``country_min_area``: pockets
        between the letters of a word welded to a box reach that minimum,
        a country emptied by a big digit is bigger. 0 turns it off.
    swallowed_hull : float
        Line widths: a paper area too thin for that disc holds it once closed
        with a disc this wide (over the strokes of a digit welded to a border
        inside a small country, which have the area's paper on both sides);
        the digit is then writing. 0 turns it off.
    swallowed_hull_share : float
        ... when at least this share of the paper within ``swallowed_hull``
        line widths around it is countries' (found after closing): a small
        country lies among countries, words welded to a box on a sheet of
        diagrams among the sea and the other pockets of the words.
    cut_pocket_inradius : float
        A paper area that gap closing splits into exactly two countries, both
        with an inscribed radius under this many line widths, was cut into
        slivers (a welded '1' tied to the border across): it keeps its
        borders unclosed. 0 turns it off.
    welded_split_extent : float
        A paper area that gap closing splits into exactly two countries,
        neither holding writing ``welded_stroke_clean`` writing heights high,
        whose border ink between them spans at most this many writing heights,
        was cut by a number welded to a border by one end and tied to another
        by closing: it keeps its borders unclosed, when the digit network
        reads the bent ink between the parts (turned as the page's writing) as
        a number ``welded_split_least`` or more with at least
        ``welded_split_posterior`` (none undone without the model). 0 turns
        it off.
    curl_min_length : float
        A loose-ended branch of the (not yet gap-closed) border network,
        shorter than ``writing_max_extent`` and at least this many line widths
        long, ...
    curl_ratio : float
        ... that is this many times longer than the straight distance from its
        end to where it is attached is writing welded to a border (a digit
        curls, a border stopping short runs fairly straight). 0 turns it off.
    curl_keep : float
        Line widths of such a branch next to where it is attached that stay
        border (the line it hangs on is not nicked).
    curl_max_hole : float
        Such a branch that, closed by the straight line from its end to where
        it is attached, encloses paper of this inscribed radius (line widths)
        or more runs around a country (a border broken by a gap): it stays
        border. 0 turns the test off.
    stub_bridge_reach : float
        Before the protrusion step takes border ink far from every boundary
        between countries for writing, the loose ends around each line-like
        piece of it are continued to the ink ahead within this many line
        widths (a window around the piece): a faint pencil border broken off
        at both ends then lies between two countries again and stays. 0 turns
        it off.
    stub_bridge_extent : float
        Such a piece is at least this many line widths long, its area at most
        ``fragment_max_fill`` times its extent times the line width (a
        digit's bent strokes are not).
    stub_bridge_min_branch : float
        Loose ends continued there need a branch of at least this many line
        widths (as ``bridge_min_branch``; 4 also ties a short stretch of
        border hanging off a junction, but a stroke by a number too). The
        bridges of the pieces they rescue stay border.
        (Both 6 until the twenty-ninth session; 3 with ``stub_raw_fill``: a
        short border with a gap in its middle leaves two stubs 3-5 line widths
        long that now tie back. Whole reader: dev countries found 3582 -> 3589,
        adjacency +36, armies +6; validation +8, +23, +2; big +11, +40, +11.)
    stub_raw_fill : bool
        The area of that test is measured on the ink before gap closing
        (closing fills the paper beside a faint or wavering line and inflates
        it: r3 139), when that ink is line-like everywhere: ...
    stub_raw_density : float
        ... no window ``stub_raw_window`` line widths square holds more than
        this fraction of the piece's ink (a line's corner or junction holds
        about half, r3 139's pieces 0.45-0.54; a digit's curled strokes on a
        leftover of ruling nearly fill it: fresh 20110's "5" on a Seyes line,
        0.94, was bridged as border; words written on the paper photos
        0.64-0.79, 0.75 let one close a junk region in paper_target.py).
    stub_raw_window : float
        Line widths.
    stub_long_reach : float
        The loose ends of such a piece that runs clear of writing (below) are
        continued up to this many line widths instead (a border broken by a
        longer gap; 12 also bridged a few wrong strokes). At most
        ``stub_bridge_reach`` turns it off.
    stub_long_beside : float
        A piece with more than ``stub_long_share`` of its pixels within this
        many line widths of number-sized writing runs along it: an underline
        or a number's stroke, not clear of writing ...
    stub_long_share : float
        ... (a piece of border passes a number for a part of its length).
    link_reach : float
        A piece of ink taken for writing before gap closing whose two ends
        both lie within this many line widths of the border network is a
        piece of border broken off by gaps (faint pencil), when it is also
        line-like (below); 0 turns it off.
    link_min_length : float
        ... at least this many line widths long (a 't' or a '1' welded
        between the lines of a narrow box is shorter), ...
    link_straightness : float
        ... its two farthest skeleton ends at least this fraction of its
        skeleton's length apart, ...
    link_max_fill : float
        ... and its area at most this many times its skeleton's length times
        the line width.
    link_short_length : float
        A piece shorter than ``link_min_length`` but at least this many line
        widths long (a dash of a border drawn in dashes; its skeleton's
        length counted one line width longer, for its round caps) ...
    link_short_reach : float
        ... is border when both its ends lie within this many line widths of
        border ink. ``link_short_length`` 0 turns it off.
    chain_min_span : float
        Pieces of ink taken for writing before gap closing, each at least
        ``chain_min_length`` line widths long, thin (``link_max_fill``) and
        without a loop, that lie within ``link_reach`` of each other form a
        chain; a chain of two pieces or more at least this many writing
        heights long that comes within ``link_reach`` of border ink at two
        places that far apart is a faint border broken at several places. 0
        turns it off.
    chain_min_length : float
        (See ``chain_min_span``.)
    chain_max_fill : float
        A chain with more ink than this many times its length (its box) times
        the line width is writing (a number with its underline written
        across a narrow country), not a broken border. (1.75 before the
        sixty-ninth session: a broken border whose strokes overlap side by
        side where they restart, or traced twice, holds more; 2.0 on
        the 750 dev photos: dev3 061246 +3 countries, no other photo changed.)
    link_dash_length : float
        An ink piece smaller than ``ink_min_blob`` (taken off as noise) but
        at least this many line widths long (a short stretch of border
        between two gaps, often from one junction to the next, where no
        loose end shows the gap to bridging) ...
    link_dash_reach : float
        ... is border when both its ends lie within this many line widths of
        border ink. ``link_dash_length`` 0 turns it off.
    link_dash_width : float
        Such a dash is straight: its least rectangle at most this many line
        widths wide (a small '1' or '4' of a thin pen is wider) ...
    link_dash_fill : float
        ... drawn with the borders' pen: its area at least this many times
        its length times the line width (a thin pen's underline, a smudge
        of the sheet's edge is thinner) ...
    link_dash_clear : float
        ... and stands clear of the writing: none within this many line
        widths (an underline, a stroke broken off a digit).
    link_beside : float
        A straight piece of ink with writing within this many line widths
        beside it (away from its ends) is an underline, not a piece of
        border (for ``split_writing``'s fragments and ``linked_fragments``),
        when its colour is that of the writing ...
    link_beside_contrast : float
        ... and differs from the borders' by at least this much (Euclidean
        distance of the mean colours' chroma, each less its grey level, in
        BGR levels; the writing's at most half of it): a number written with
        another pen than the map's. ``link_beside`` 0 turns it off.
    neck_end_reach : float
        Ink added by gap closing that cuts a country in two is undone (a
        narrow neck of one country, not a gap) when no line of the borders
        before closing stops within this many line widths of it, ...
        0 turns it off.
    neck_min_width : float
        ... the passage it fills is at least this many line widths wide
        (narrower: lines touching but for a pixel at a junction), ...
    neck_side_reach : float
        ... and it joins two pieces of ink that are separate within this
        many line widths of it (not a hole in a thick stroke).
    divide_inradius : float
        A line-like piece of writing (a stretch of border cut off by gaps at
        both ends) is border when, joined to the borders, it divides a
        country into two parts that each hold a disc of this radius, in line
        widths; 0 turns it off. A far end is joined to the nearest border ink
        within ``divide_end_reach`` line widths, or (when the other end is)
        continued straight on up to ``bridge_reach``, or else to the nearest
        border ink or other such piece (then joined too: a border broken
        twice) within ``bridge_reach`` and ``bridge_cone`` degrees of the
        direction of its last ``divide_aim_back`` line widths. Not taken: a piece
        along removed ruling (``bridge_max_on_ruling``), in the hue of the
        writing within ``bridge_reach`` rather than the borders'
        (``link_beside_contrast``), or beside other writing
        (``stub_long_beside``, ``stub_long_share``) ...
    divide_end_reach : float
        ... (see above) ...
    divide_min_length : float
        ... its skeleton at least this many line widths long ...
    divide_straightness : float
        ... its far ends at least this fraction of that length apart (its
        area at most ``link_max_fill`` times its length times the line width).
    divide_aim_back : float
        ... (see above).
    divide_min_fill : float
        ... and its area at least this many times its length times the line
        width: a piece much thinner than the drawing's strokes (a stretch of
        printed ruling the ruling search missed, a pixel wide) is no border.
    divide_coast : bool
        Such a piece with both far ends within ``divide_end_reach`` of the
        borders is also border when, joined, it cuts a part holding a disc of
        ``divide_inradius`` off the sea (a stretch of coast broken off by gaps:
        its country was taken for sea), a part farther than ``gap_step_edge``
        line widths from the working image's edge.
    divide_digit_gap : float
        Nor is a piece at most ``divide_digit_extent`` writing heights long,
        that reaches the borders at one end only (the other continued by a
        ray or aimed), border when another piece of writing between half
        and all of that long (a digit), not itself such a line-like piece,
        lies within this many writing heights of it, side by side with it
        (along the piece their spans overlap by half the shorter; a broken
        border's stretches lie end to end): the second 1 of an 11, a digit
        of a number beside the others. 0 turns the test off.
    divide_digit_extent : float
        ... (see above).
    divide_digit_tone : float
        ... and of the piece's pen: the larger of the two median ink
        darknesses (:attr:`Ink.darkness`) at most this many times the
        smaller. A number is written in one pen; a digit in ink beside a
        pencilled border's stretch is not the stretch's neighbour in a
        number. 0: no tone test.
    divide_number_posterior : float
        A dividing piece (see ``divide_inradius``) whose ink reads as a number
        ``divide_number_least`` or more with at least this probability is a
        number welded to the borders (a "2" whose bar touches one border and
        whose foot points at another), not a stretch of border. 0 turns the
        test off. (Sixty-first session, any turn, against 0: dev predicted
        countries -10, matched -2, adjacency right +6, armies +3, conquered
        -1, letters +6; validation predicted -9, matched +1, adjacency right
        +12, armies +6, owner +4, conquered +2; 18 pages better, 1 worse: dev3
        061158, whose ">"-shaped stretch of border reads as a number at 0.96.
        0.7: dev armies +3, but matched -7 and 6 pages worse.)
    divide_number_least : int
        ... counting numbers from this (a straight stretch of border reads 1).
    divide_number_any_turn : bool
        ... turned whichever way it reads best (the players write from their
        own sides of the sheet); False: as the page's writing only (the
        ``welded_split_turn_clusters`` largest pieces read best so).
    divide_held_inradius : float
        A line-like piece with both far ends within ``divide_end_reach`` of
        the borders is border also when, joined, it divides a country into
        two parts that each hold a disc of only this radius (in line widths,
        below ``divide_inradius``), when each part that holds no disc of
        ``divide_inradius`` holds a piece of writing of its own, from half a
        writing height to ``divide_digit_extent`` writing heights long and
        not itself such a line-like piece (a small country and its number;
        an underline or a digit joined to the borders cuts off a corner with
        no number in it; a stretch of leftover ruling is longer). 0 turns it
        off. (Helper sw44, forty-fourth session: every firing over the 1,390
        dev and validation photos lies on a true border; whole reader on the
        photos it changes: dev3 +5 matched, +6 armies, +6 owner, +4 conquered,
        dev3v3 +4/+5/+5/+3, fresh2 +3/+1/+3/+3; tune s3 r3 dev2 fresh
        unchanged.)
    polygon_tolerance : float
        Douglas-Peucker tolerance of the output polygons, in line widths.
    """

    max_pixels: int = 60_000_000
    working_long_side: int = 1400
    decode_oversampling: float = 1.25
    page_min_area: float = 0.15
    page_max_area: float = 0.98
    page_by_lines: bool = True
    page_by_frame: bool = True
    page_frame_bright: float = 0.95
    page_frame_min_turn: float = 2.5
    page_edge_min_length: float = 0.2
    page_corner_outside: float = 0.25
    page_outside_bright: float = 0.9
    page_outside_fraction: float = 0.5
    page_analysis_px: int = 400
    page_prescale: float = 2.0
    page_canny_low: float = 15.0
    page_canny_high: float = 45.0
    page_outline_approx: float = 0.02
    page_bright_close: float = 0.02
    page_bright_fill: float = 0.85
    page_paper_saturation: float = 0.5
    page_step_far_px: float = 8.0
    page_step_min: float = 17.0
    page_step_near_px: float = 1.5
    page_step_crisp: float = 0.5
    page_side_search_px: float = 5.0
    page_line_search_px: float = 4.0
    page_line_dip: float = 0.5
    page_hough_votes: int = 40
    page_hough_gap_px: int = 8
    page_max_segments: int = 60
    page_quick_step: float = 0.7
    page_merge_cos: float = 0.995
    page_merge_px: float = 4.0
    page_max_edges: int = 8
    page_turn_cos: float = 0.5
    page_opposite_cos: float = -0.8
    page_beyond_near_px: int = 3
    page_beyond_far_px: int = 15
    page_beyond_seen: float = 0.3
    page_beyond_paper: float = 0.8
    page_beyond_stroke: float = 0.6
    page_beyond_stroke_fraction: float = 0.02
    # Beyond a false side (grid line at a glare's edge) 0.22-0.29 of the band
    # is thin lines (big 2265, 2273); beyond a true edge the table is dark.
    page_beyond_line_px: int = 5
    page_beyond_line_contrast: float = 8.0
    page_beyond_line_fraction: float = 0.1
    page_warp_oversampling: float = 1.25
    page_frame_margin: float = 0.01
    page_margin: float = 0.012
    ruling_perspective: float = 0.15
    ruling_perspective_px: int = 800
    ruling_perspective_length: float = 0.2
    ruling_perspective_lines: int = 8
    ruling_perspective_tolerance: float = 0.7
    ruling_perspective_grow: float = 2.5
    ruling_perspective_level: float = 93.0
    ruling_perspective_strokes: float = 98.0
    ruling_perspective_apart: float = 30.0
    ruling_perspective_keep: float = 1.2
    page_crop_max: float = 0.9
    page_crop_pad: float = 0.01
    page_crop_dark: float = 0.6
    page_crop_outside: float = 0.05
    page_crop_stroke: float = 15.0
    page_crop_stroke_px: int = 7
    page_crop_beyond: float = 0.01
    background_kernel: float = 0.03
    paper_min_brightness: float = 0.6
    paper_blob_max: float = 0.01
    ink_darkness: float = 0.08
    ink_faint_median: float = 0.16
    ink_faint_ratio: float = 0.25
    ink_darkness_plain: float = 0.03
    ink_faint_max_gain: float = 0.9
    # The ruling check of the faint level 0.039 of fresh 020102 (faint pencil on lined
    # paper whose print is broken into dashes there) sees no ruling, and the pass cuts
    # the map into bands (matched 2787 -> 2801 of fresh, predicted 2983 -> 2928,
    # armies 1800 -> 1818). Checks 1.0 to 0.7 give the same on the 450 dev pages
    # (the check's answer changes on none of them); 0.75 as 0.85 on fresh, fresh2.
    ink_faint_guard: float = 0.85
    # Dark ballpoint numbers on a faint pencil map hid its faintness (big
    # 2191: lines 0.11, all ink 0.21; the lines 13% of the ink).
    ink_lines_least: float = 0.05
    # Lines / all ink: 0.52 (big 2191), 0.67 (dev2 329, gains); 0.93 (tune
    # 523: a normal map at the old limit, whose faint pass thickens it, loses).
    ink_lines_lighter: float = 0.8
    ink_lines_edge: float = 2.0
    # Gaps only: dev3 061074 (glare over a third of a pencil map, ink median
    # 0.161) adds 0.08 of its ink; s3 631 (ruled paper whose ruling was not
    # found) 0.69.
    ink_faint_gaps_gain: float = 0.3
    # Parallel share: r3 100 (vertical ruling not found) 0.91, dev3 061035
    # (slanted ruling not found, beside the map's gaps) 0.48; dev3 061074
    # 0.09, 061285 0.43, s3 603/604 (plain) 0.20/0.43.
    ink_gaps_parallel: float = 0.45
    ink_glare_paper: float = 254.0
    ink_glare_darkness: float = 0.03
    ink_glare_gain: float = 0.3
    ink_faint_ruled_median: float = 0.19
    ink_faint_ruled_gain: float = 0.1
    ink_faint_ruled_extent: float = 10.0
    # The off-ruling pass (sixty-fifth session), region and marks stages on
    # the 750 dev and validation photos: fresh2 020295 (pencil map broken
    # into pieces on squared paper) 21 more countries matched, dev2 000301
    # (pencil as light as the grid under ballpoint numbers: none found) 11,
    # dev3 061073 7, fresh2 020205 7, 020267 6. The guards, measured on
    # pages that went wrong without them: s3 000621 (a sheet rectified
    # askew) leaves 0.49 of its ruling, dev3 061021 0.49, 061293 0.45
    # ("left"); fresh 020018's grid stretches lie on the lines; a grainy
    # table (synthetic photo 134) is dense; s3 000608 (not rectified, in
    # strong perspective) is why the pass is for rectified pages only.
    # Turns of 1 degree against 0.5: dev armies +13 against +19, about
    # 0.07 s less per ruled page.
    ink_off_ruling_level: float = 0.03
    ink_off_ruling_length: float = 0.045
    ink_off_ruling_extent: float = 8.0
    ink_off_ruling_parallel: float = 0.45
    ink_off_ruling_most: float = 0.04
    ink_off_ruling_on_lines: float = 0.5
    ink_off_ruling_on_extent: float = 3.0
    ink_off_ruling_dense: float = 0.35
    ink_off_ruling_spread: float = 1.0
    ink_off_ruling_step: float = 1.0
    ink_off_ruling_left: float = 0.3
    ink_off_ruling_left_level: float = 0.05
    ink_darkness_strong: float = 0.25
    ink_weak_extent: float = 8.0
    ink_min_blob: float = 6.0
    ink_pink_red: float = 0.35
    margin_line_ratio: float = 0.65
    margin_line_pixel: float = 0.85
    margin_line_length: float = 0.5
    margin_line_cover: float = 0.5
    margin_line_gap: float = 0.15
    margin_line_darker: float = 1.5
    margin_line_band: float = 0.0036
    grid_min_lines: int = 6
    grid_line_steps: float = 12.0
    grid_min_long_lines: int = 4
    grid_line_bridge: float = 1.0
    grid_bridge_min_ink: float = 0.7
    grid_max_step: float = 0.065
    grid_min_strips: int = 2
    grid_run: float = 0.05
    grid_fan: tuple[float, ...] = (0.0,)
    grid_min_coverage: float = 0.5
    grid_strips: int = 8
    grid_darker: float = 1.6
    grid_darker_extra: float = 0.15
    grid_darker_extra_uniform: float = 0.05
    grid_darker_spread: float = 2.5
    grid_two_level_fraction: float = 0.14
    grid_two_level_extent: float = 0.1
    grid_two_level_ratio: float = 1.4
    grid_darker_crest: float = 1.2  # x the lines' median crest darkness
    ruling_darkness: float = 0.05
    ruling_contrast_max_gain: float = 2.0
    ruling_glare_paper: float = 0.93
    ruling_glare_ratio: float = 1.1
    ruling_contrast_percentile: float = 95.0
    ruling_contrast_tiles: int = 8
    ruling_contrast_min_gain: float = 1.8
    ruling_max_density: float = 0.6
    ruling_texture_density: float = 0.5
    ruling_tiles: int = 3
    ruling_fine_tiles: int = 5
    ruling_known_angle: float = 4.0
    ruling_relaxed_lines: int = 4
    ruling_residual_tiles: int = 7
    ruling_threads: int = 2
    ruling_residual_reach: int = 2
    ruling_residual_relaxed: bool = True
    ruling_residual_bridge: float = 0.015
    ruling_residual_pitch: float = 0.3
    ruling_new_darker: float = 1.65
    ruling_new_min_share: float = 0.01
    ruling_max_skew: float = 20.0
    ruling_thick_ratio: float = 1.2
    ruling_thick_extra: float = 0.0
    ruling_thick_length: float = 0.01
    ruling_crossings: bool = True
    ruling_speck: int = 12
    ruling_restore: int = 4
    ruling_colour_min: float = 0.5
    ruling_colour_keep: float = 0.4
    ruling_colour_pixels: int = 100
    ruling_colour_weak: float = 0.12
    ruling_colour_cross: int = 2
    ruling_lattice_tolerance: float = 0.3
    ruling_grey_length: float = 0.03
    ruling_grey_fill: float = 0.5
    ruling_grey_keep: float = 0.6
    ruling_grey_min_colour: float = 0.25
    ruling_grey_pixel: float = 0.8
    ruling_grey_darker: float = 1.2
    ruling_grey_run: float = 0.75
    ruling_grey_sample: int = 4
    ruling_grey_band: float = 0.5
    paper_area_max: float = 0.97
    paper_area_outside: float = 0.1
    paper_area_inside: float = 0.1
    paper_area_crossing: float = 0.1
    paper_area_hull: bool = True
    paper_area_rectified: bool = False
    gap_close: float = 3.0
    gap_end_min_branch: float = 3.0
    gap_end_cone: float = 20.0
    gap_step_edge: float = 6.0
    bridge_reach: float = 12.0
    bridge_min_branch: float = 6.0
    bridge_cone: float = 30.0
    bridge_min_thickness: float = 0.0
    bridge_max_thickness: float = 2.0
    bridge_country_inradius: float = 4.0
    step_seal_inradius: float = 4.0
    bridge_max_on_ruling: float = 0.5
    bridge_end_to_end_thickness: float = 0.75
    writing_max_extent: float = 0.06
    fragment_min_extent: float = 12.0
    fragment_max_fill: float = 1.3
    fragment_max_width: float = 2.0
    # Bent pieces (sixty-fifth session): on the 750 dev and validation
    # photos after the off-ruling pass, matched countries +19, armies +10,
    # no page worse (dev2 000301 +7 countries, r3 000103 +3, fresh2 020298
    # +4; dev3 unchanged).
    fragment_bent_extent: float = 18.0
    country_min_inradius: float = 2.5
    enclave_ring_inradius: float = 1.8
    enclave_ring_hole: float = 0.2
    empty_loop_inradius: float = 4.5
    empty_loop_darkness: float = 0.05
    empty_loop_depth: float = 2.0
    empty_loop_size: float = 1.5
    country_min_area: float = 40.0
    country_min_text_area: float = 0.6
    frame_min_enclosed: int = 3
    adjacency_min_length: float = 4.0
    adjacency_reach: float = 4.0
    barrier_inradius: float = 2.0
    adjacency_max_gap: float = 2.2
    corner_contact_length: float = 6.5
    corner_contact_ratio: float = 0.4
    corner_contact_apart: float = 2.0
    stub_country_inradius: float = 2.0
    protrusion_distance: float = 2.0
    protrusion_root: float = 1.0  # off every boundary and joined to a protrusion: writing
    protrusion_root_extent: float = 16.0  # longest piece so extended (line widths)
    protrusion_root_tip: float = 3.0  # least protrusion so extended (square line widths)
    protrusion_root_sea: float = 3.0  # not extended when mostly this near the sea (line widths)
    protrusion_root_paper: float = 0.3  # least share of countries' paper in its box
    welded_writing: bool = True
    welded_stroke_depth: float = 0.25  # writing heights off the straight border line
    welded_stroke_line: float = 1.3
    welded_stroke_reach: float = 1.0
    welded_stroke_touch: float = 1.0
    welded_stroke_area: float = 3.0
    welded_stroke_extent: float = 1.6
    welded_stroke_share: float = 0.8
    welded_stroke_clean: float = 0.5
    swallowed_min_area: float = 80.0
    swallowed_hull: float = 3.0
    swallowed_hull_share: float = 0.35
    cut_pocket_inradius: float = 3.5
    welded_split_extent: float = 2.0
    welded_split_stroke: float = 0.5  # ... and holds a bent stroke this long (writing heights) ...
    welded_split_bend: float = 0.3  # ... and this wide (writing heights) ...
    welded_split_thickness: float = 0.5  # ... and this thick (line widths)
    welded_split_part: float = 0.8  # the narrower part's inradius at most this (writing heights)
    welded_split_posterior: float = 0.9  # ... and the bent ink reads as a number this surely
    welded_split_least: int = 2  # ... counting numbers from this (a lone stroke, a stub, reads 1)
    welded_split_turn_clusters: int = 8  # ... turned as the largest this many clusters read best
    curl_min_length: float = 4.0
    curl_ratio: float = 2.5
    curl_keep: float = 2.0
    curl_max_hole: float = 3.0  # a curled branch closing round paper this wide (inradius) is border
    stub_bridge_reach: float = 6.0
    stub_bridge_extent: float = 3.0
    stub_bridge_min_branch: float = 3.0
    stub_raw_fill: bool = True
    stub_raw_density: float = 0.6  # a corner of line fills about half the window
    stub_raw_window: float = 3.0
    stub_long_reach: float = 10.0
    stub_long_beside: float = 2.5
    stub_long_share: float = 0.4
    link_reach: float = 3.0
    link_min_length: float = 9.0
    link_straightness: float = 0.6
    link_max_fill: float = 1.3
    link_short_length: float = 4.0  # a shorter piece (a dash) is linked ...
    link_short_reach: float = 1.5  # ... only with both ends this close to border ink
    chain_min_span: float = 2.5
    chain_min_length: float = 4.0
    chain_max_fill: float = 2.0
    link_dash_length: float = 2.5  # a noise-sized piece (a dash between two gaps) is linked ...
    link_dash_reach: float = 2.5  # ... only with both ends this close to border ink
    link_dash_width: float = 1.4  # widest least rectangle of a dash (line widths)
    link_dash_fill: float = 0.75  # least area of a dash / (length x line width)
    link_dash_clear: float = 2.0  # no writing this near a dash (line widths)
    link_beside: float = 3.0
    link_beside_contrast: float = 15.0
    neck_end_reach: float = 1.5
    neck_min_width: float = 1.2
    neck_side_reach: float = 3.0
    divide_inradius: float = 5.0
    divide_end_reach: float = 3.0
    divide_min_length: float = 6.0
    divide_straightness: float = 0.5
    divide_min_fill: float = 0.4
    divide_aim_back: float = 3.0  # a far end's direction: from the piece's last this many lw
    divide_coast: bool = True
    divide_digit_gap: float = 0.35  # writing heights; 0: off
    divide_digit_extent: float = 1.5  # writing heights
    divide_digit_tone: float = 2.0  # darkness ratio; 0: no tone test
    divide_held_inradius: float = 3.0  # line widths; 0: off
    divide_number_posterior: float = 0.9
    divide_number_least: int = 2
    divide_number_any_turn: bool = True
    polygon_tolerance: float = 0.5
