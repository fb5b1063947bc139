"""Read what is written in each country: the army number, underline, cross-out and letter.

Stage 2 of the photo reader. Input: a :class:`~aggression_vision.vision.types.Segmentation`
(regions and the writing ink separated from the borders). For each region:

1. the writing components inside it are found (leaving out specks, "+" crossings of
   printed ruling and straight slivers of border) and grouped into clusters (a number
   with its underline and cross-out strokes; a letter; a letter next to a number), using
   gaps scaled to the typical height of the writing on the page;
2. each cluster is cut out as an ink-darkness image (paper 0, ink 1, everything that is
   not this cluster's writing blanked; a digit too light for the ink mask beside it
   joins it) and normalised for the recogniser;
3. the page's writing orientation is found (:func:`writing_orientation`: the largest
   clusters read at trial rotations, and the underlines' side) and the writing grouped
   again in its frame;
4. all clusters of the page go through the network in one batch
   (:mod:`aggression_vision.vision.digits`); the text of a cluster is the best string of
   a closed vocabulary (numbers 1-100, letters, letter + number, nothing) under the CTC
   model, and the network also says whether it is underlined and crossed out; a cluster
   of several ink columns is also read cut in two, and a letter + number split replaces
   it (:func:`resolve_splits`);
5. a country's number is its most confident number cluster of writing height, its letter
   its most confident letter cluster (:func:`combine`).
"""

from __future__ import annotations

import copy
import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from typing import Any

import cv2
import numpy as np
from numpy.typing import NDArray

from aggression_vision.game.board import enemy_armies
from aggression_vision.game.state import ARMIES_PER_PLAYER
from aggression_vision.vision import digits
from aggression_vision.vision.ink import connected_components
from aggression_vision.vision.regions import thin
from aggression_vision.vision.types import CountryMarks, Segmentation

#: The columns of the numbers 1-100 in a row over the closed vocabulary (nothing first,
#: see :func:`digits.closed_vocabulary`); the letters follow.
_NUMBERS = slice(1, 1 + digits.MAX_ARMIES)


@dataclass(frozen=True)
class MarksSettings:
    """Thresholds of the marks reader.

    Attributes
    ----------
    min_component_area : float
        Writing components smaller than this many squared line widths are specks.
    min_component_height : float
        ... or with a bounding box shorter than this many line widths (when also
        narrower than it): dots and noise.
    speck_reach : float
        On a page without printed ruling (``Segmentation.ruled`` False), a speck (a
        component too small by ``min_component_area`` or ``min_component_height``) of
        at least ``speck_least`` squared line widths, more than ``speck_border`` line
        widths from any border, whose box is within this many line widths of the box
        of a component of a cluster of the same country is read with that cluster (the
        nearest): the ink mask breaks a thin or light stroke into pieces, and a digit
        that loses the small one reads as another (a "4" whose crossing stroke is cut
        off as a "1"). Not for the orientation vote (it turned a page), nor for light
        writing. 0: off. Marks stage at c77d1f7 against off: armies dev 2249 -> 2252
        (tune +1, r3 +2; s3 conquered +1; dev2 an empty country's letter read as a
        number), validation unchanged (owner +1, conquered +1), big 4227 -> 4231. On
        ruled pages too (reach 1.0, least 0.8, no border test) dev gained 5 more but
        lost on dev2 (-2 armies, -2 owners: the ruling's crossings joined letters of
        empty countries); without the border test validation lost 4 armies (stubs of
        borders joined to numbers: a "7" read "2").
    speck_least : float
        See ``speck_reach``: smaller specks stay noise.
    speck_border : float
        See ``speck_reach``.
    group_gap_x : float
        Two components belong to one cluster when the horizontal gap between their
        boxes is below this fraction of the typical writing height (and they overlap
        vertically within ``group_gap_y``).
    group_gap_y : float
        Vertical gap, as a fraction of the writing height, that still joins
        components (an underline below a number, a cross-out above it).
    stack_height : float
        Components one above the other (no vertical overlap) join only when one of
        them is flatter than this fraction of the writing height (an underline, a
        dash, a digit's detached bar): a letter written above a number stays apart.
    mark_threshold : float
        Probability above which a cluster is underlined / crossed out.
    soft_fraction, soft_cross_threshold : float
        A number's crop whose ink pixels are more than ``soft_fraction`` mid-tones
        (darkness between ``soft_levels``, a blurred or faint stroke) is crossed out by
        the network's word only above ``soft_cross_threshold``: blurred digits are
        read as struck through more often than real cross-outs are soft (on the 64
        tuning+dev pages, 40% of the invented cross-outs and 20% of the real ones).
        (0.8 before ``crossed_views``, whose views temper a blurred number's word.)
        ``soft_fraction`` 0.45 (sixtieth session; 0.35 before ``crossed_net_word`` and
        the crossed-out reader's later rounds): marks stage on the cached segmentations
        of the 750 dev and validation pages, conquered right +13 (tune, r3, dev2 and
        fresh +1, fresh2 +2, dev3 +7), s3 owner +1, nothing lost; 0.4: +9, 0.5: +13,
        0.3: -14. ``soft_cross_threshold`` 0.6 instead: +10 (s3 -1).
    soft_levels : tuple of float
        The darkness range (over the crop's ink level) counted as mid-tone.
    ink_dilate : float
        The cluster mask is grown by this many line widths before reading the ink,
        to keep the anti-aliased edges of the strokes.
    background_kernel : float
        Paper brightness is estimated with a max filter of this many writing
        heights (wider than any stroke).
    pair_vocabulary : bool
        Also consider "letter next to number" readings for clusters whose best path
        mixes letters and digits.
    orientation_clusters : int
        How many of the largest clusters vote on which way the writing is turned.
    orientation_rounds : tuple of int
        The voters join the vote in rounds of these many (largest first); after each
        round the trial orientations whose mean score trails the best one's by more than
        ``orientation_drop`` nats per voter are read no further (a race: reading every
        voter at every angle costs most of the stage, and most angles are plainly wrong
        after a few voters). The last surviving orientation, or the best after all the
        rounds, wins. (On 88 pages, tuning 500-523, dev 600-639 and the real sudoku
        photos, rounds (3, 3, 4, 6) with drops (1.25, 0.5) chose the same orientation on
        every page as reading 10 voters everywhere and all 16 at the best 4, with 84
        instead of 120 crops per page.)
    orientation_drop : tuple of float
        See ``orientation_rounds``; one value per round, the last one repeating.
    orientation_spread : int
        The voters join the rounds every so many in order of height (2: the 1st, 3rd,
        5th... tallest, then the 2nd, 4th...; 1: largest first): the tallest writing
        alone does not decide which angles stay in the race. (Marks stage on cached
        segmentations, base c7498a9: big 2057, whose tall misreadings dropped its true
        angle in the first round, 170 -> 10 degrees off, armies 3 -> 10; no other dev,
        validation or big page changed but big 2233 (13 -> 3 degrees off); every 4th
        voter turned big 2060 60 degrees off.)
    orientation_more_clusters, orientation_far : int, float
        When after the rounds an orientation more than ``orientation_far`` degrees from
        the best one still races (a half turn: 6/9, 1, 8, 0 read both ways up), up to
        this many more of the largest clusters join the vote (a race that close
        should not turn on which 16 clusters were the tallest). (Real sudoku photo
        02_19_iphone_14_0: 16 voters put upright 0.09 nats ahead of 150 degrees, and a
        region stage that left two stubs of grid line turned it; 32 voters 0.35. No
        page of the dev sets or of fresh seeds 20000-20299 changed its orientation.)
    orientation_refine_clusters : int
        How many voters decide the refinements.
    orientation_floor : float
        A voter's log-likelihood (nats) counts as no lower than this: a voter that is no
        text at any angle (a stroke, a blob, a piece of border) cannot outvote the
        others. (Tuning and dev photos, seeds 500-523 and 600-639: without it 8 of 64
        pages were read more than 45 degrees off, with -2 nats 4.)
    orientation_step : float
        Degrees between the trial orientations when the page was not rectified (the
        writing may then lie at any angle); a rectified page is tried at 0, 90, 180
        and 270 degrees only.
    orientation_refine : tuple of float
        Successive refinements: degrees either side of the best orientation so far
        also tried, the median voter deciding. (On tuning photos, seeds 500-523: 16
        voters, 30-degree steps and one 10-degree refinement found the writing's angle
        within 10 degrees on 20 of 24 photos; 10 voters and a prior of 0.5 on 13.)
    orientation_prior : float
        Log-likelihood (nats, mean per voter) another orientation must gain over
        upright to be chosen: some digits read almost as well upside down (6/9, 1, 8,
        0). Kept small: a sheet on a table is photographed from any of its sides.
        (Fifty-fourth session, 0.1 -> 0.05: on the 750 dev and validation pages only
        dev3 061150 and 061281, both upside down, change: armies +13, owner +12; 0.03
        the same, 0.07 one of the two; 0 also drops the bar and underline votes, which
        only count with a prior: armies -44 over the seven sets.)
    orientation_letter_penalty : float
        In the coarse choice of orientation (quarter turns, or the sweep), the nats a
        voter's best letter reading gives up against its best number reading: every
        occupied country holds a number, few hold a letter, and an upside-down digit
        often passes for a letter (7/L, 3/E, 4/h). (Real sudoku photo
        02_17_iphone_14_1 was read upside down without it: 4 of 45 digits right.) Not
        applied on a page that looks labelled (see ``labelled_page_fraction``).
    orientation_label_letters, orientation_label_share : int, float
        Nor at a trial orientation where at least this many voters, and this share of
        them, read as letters no other voter reads there: a labelled page the right way
        up (its countries' names, each once), where the count of clusters by country
        cannot tell (a game's start: a letter alone in most countries; tune 530, 533,
        dev2 318 were read upside down). Upside-down digits that pass for letters
        repeat (7/L, 3/E). 0 letters turns this off.
    orientation_bar_elongation : float
        A voter whose ink is this many times longer than wide (the square root of the
        ratio of its second moments) is a bar: a stub of border, a piece of ruling, a
        detached underline, or a 1. Bars do not set the writing height the voters are
        chosen by: where border stubs outnumber the writing, their height passed for the
        writing's and shut the numbers out of the vote (dev2 305: 11 px stubs at a
        quarter turn outvoted 40 px numbers). (4, not 6: the pieces a squared page's
        grid leaves, 5-8 px high, are 4.6-10 times longer than wide; at 6 those under it
        set the height at 8 px and shut out the 30-50 px numbers, fresh seed 20087 read
        120 degrees off. Of the voters on the 150 dev pages, 3.6 % of those on a number
        and 63 % of those on no writing are 4 times longer than wide; 1.0 % and 47 % 6
        times. A voter left out here still votes.)
    orientation_flip_votes, orientation_flip_nats : int, float
        After the race, every voter compares the winner with its half turn: the half turn
        wins when at least ``orientation_flip_votes`` more voters read it better than
        worse by over ``orientation_flip_nats`` nats and the median voter reads it better.
        The mean of the race can go to a few voters' confident misreadings (a labelled
        page's letters upside down read as digits, crossed-out numbers floored either
        way) against most of the page. 0: off. (Marks stage on cached segmentations, base
        22eabfc: 25 of 747 dev, validation and big pages were read more than 25 degrees
        off, most of them a half turn; armies dev 2222 -> 2222, fresh 2179 -> 2191,
        fresh2 1911 -> 1911, big 4043 -> 4079 (fresh 20102 2 -> 12 of 19, big 2111
        1 -> 16, 2134 6 -> 25). The median alone as the race's measure lost tune 532
        22 -> 9; without the median's word s3 637 and big 2029 turned the wrong way;
        the quarter turns checked alike broke s3 613 and fresh 20018.)
    orientation_keep_half : bool
        In the race (``orientation_rounds``), the half turn of the round's leader is
        not dropped: the choice between a reading and its half turn (6/9, 1, 8, 0 and
        N, H, O, S, Z read both ways up) is made by the whole panel, and by more voters
        (``orientation_more_clusters``), not by the first round's few tallest voters.
        (Fresh seed 20110, squared paper, rectified: a region stage that kept a few
        grid ticks beside the writing changed which six voters came first, and 180
        degrees, the truth, trailed 0 by 0.57 nats there and left the race; kept, the
        whole panel chose it.)
    orientation_flip_mean : bool
        On a page that was not rectified, the half turn of ``orientation_flip_votes``
        also needs the voters' mean gain there to be positive (as the quarter turns
        do): the race's winner is a 30-degree step's guess that can lie far enough off
        the writing that most voters read poorly there, and small gains for the half
        turn add up to a vote. (Dev photo r3 134, ruled paper, true 267 degrees: with a
        few hundred pixels of changed ink, 300 won the race by 0.013 nats over 270 and
        lost to its half turn 4 voters net, mean gain -0.003 nats: read 157 degrees
        off.) A rectified page is tried at its quarter turns exactly: there the count
        alone still overrules a few confident misreadings. Neither this nor
        ``orientation_keep_half`` changes the orientation of any of the 750 dev,
        validation and big pages on the f0368d7 segmentations (marks stage); on those of
        the region stage of the next commit (a stroke between two ruling lines kept),
        they keep r3 134 (-> 290 degrees) and fresh 20110 (-> 180) from turning.
    orientation_quarter_votes, orientation_quarter_elongation : int, float
        Then, on a page whose voters read doubtfully at the winner (below), the voters
        less than ``orientation_quarter_elongation`` times longer than wide compare it
        with its quarter turns one by one: a quarter turn wins when at least
        ``orientation_quarter_votes`` more of them read it better than worse by over
        ``orientation_flip_nats`` nats and their median and mean gain are positive (of
        two, the larger mean gain). The race's first rounds are the tallest voters, who
        can put the right orientation out of the race on their own. Straight strokes (a
        1, a stub, a grid piece) read as a 1 or an I at either quarter turn: they do not
        vote here (with them, s3 613 and fresh 20018 turned a quarter turn wrong). 0:
        off. (Marks stage on cached segmentations, base fac8d2b: of 747 dev, validation
        and big pages 4 big pages read 72-113 degrees off came within 23 (2065, 2122,
        2233, 2277), no other page changed; the same with 5 votes, 3.0-4.0 elongation
        or 0.2 nats; 3 votes turned tune 535 and fresh 20127 wrong; 6 left 2277.)
    orientation_quarter_doubt : float
        The quarter turns are read only when the mean reading (nats, floored at
        ``orientation_floor``) of those voters at the winner is below this: a page read
        well is not questioned (the 4 pages turned: -0.89 to -1.17; any value above
        -0.89 turns the same pages). It reads the quarter turns on 66 of the 747 pages,
        about 25 crops more each (~11 ms CPU there, ~1 ms a page on average).
    orientation_refine_elongation : float
        Voters at least this many times longer than wide (a 1, a stub, a letter I) are
        left out of the refinements (``orientation_refine``) when others remain: a
        straight stroke reads best upright at its own slant, not the page's. (Cached dev
        segmentations, 150 pages: 3 of 5 pages read 15-32 degrees off came within 13
        degrees: dev2 315, 316, s3 627.)
    orientation_border_reach, orientation_border_share : float
        A cluster with at least ``orientation_border_share`` of its ink within
        ``orientation_border_reach`` line widths of the region stage's borders lies along
        them (a stub, a border's fragment, a digit squeezed into a corner): it does not
        vote on the orientation when ``orientation_min_voters`` others of writing height
        do (cached dev segmentations, 150 pages: r3 134, a 60-country map of small
        digits, was read 117 degrees off, its border stubs reading as a 1).
    orientation_min_voters : int
        See ``orientation_border_share``.
    orientation_ruling_lines : int
        On a page that was not rectified, the sheet's printed ruling (lined, squared or
        Seyes paper) shows which way the writing runs (:func:`ruling_axes`): at least
        this many of its strongest straight lines agreeing on a direction (modulo 90
        degrees, within ``orientation_ruling_agree``) give it (0 turns it off). When the
        voters' refined choice is more than ``orientation_ruling_far`` degrees from all
        four quarter turns of that direction, it is in doubt and the voters choose again
        among those four (the same race and checks). On the HEAD segmentations: dev
        photo 535 350 -> 310 degrees (true 311), big 2185 180 -> 43 (true 43), big 2122
        10 -> 347 (true 347) and fresh 20127 120 -> 145 (true 143), no other page of the
        dev sets, big or fresh seeds 20000-20299 changed (marks only: dev armies
        2226 -> 2229, owner 2381 -> 2387; big armies 4149 -> 4166; validation armies
        4103 -> 4107). The lines are found in 107 of the 127 unrectified pages of
        ruled paper of the dev sets and big, none on plain paper; median 1.0 degree
        from the writing, at most 10.4. (Taking every unrectified page the region stage
        found ruled to the nearest quarter turn of its ruling, its writing 1 degree off
        instead of 5.5 on the median page changed, read fewer numbers: dev armies
        2226 -> 2219, s3 -7.)
    orientation_ruling_size, orientation_ruling_share : int, float
        The ruling is looked for at this many pixels on the map window's longer side,
        in this share of the paper's pixels (off the drawing) that are the darkest
        thin lines (black top-hat), at least ``orientation_ruling_contrast`` grey levels.
    orientation_ruling_contrast : float
        See ``orientation_ruling_size``.
    orientation_ruling_length, orientation_ruling_longest : float, int
        A line (Hough) takes at least this share of the window's shorter side in
        pixels; the first ``orientation_ruling_longest`` lines vote on the direction.
    orientation_ruling_agree, orientation_ruling_far : float
        See ``orientation_ruling_lines``.
    margin_redness, margin_votes, margin_cover, margin_border_share, margin_paper_grey
        How the red margin line of lined and Seyes paper is found (:func:`margin_turn`;
        ``margin_votes`` 0 turns it off): on the 750 dev and validation pages it is
        found on 165 of the 280 pages of lined or Seyes paper (about 30% have none) and
        puts the writing's left on the right side on all of them, and on none of the
        others (a map drawn in red pen: its borders; the sheet's edge against a brown
        table: paper on one side only).
    margin_window, margin_sides : int, (float, float)
        Working pixels (the working image is ``working_long_side`` pixels long): the
        square window a pixel's red is compared with, and the band (nearest, farthest)
        on each side of a line whose paper is compared.
    margin_lines, margin_edge, margin_side_red : int, float, float
        The strongest Hough lines looked at; the share of the shorter side along the
        image's own edge where no margin is taken; the most of a side's band that may
        be red.
    orientation_margin_far, orientation_margin_nats, orientation_margin_votes
        When the voters' choice (the race and its half- and quarter-turn checks) lies
        more than ``orientation_margin_far`` degrees from the turn that puts the margin
        on the writing's left (the nearest quarter turn on a rectified page), the
        margin's turn is taken unless the voters' mean reads it more than
        ``orientation_margin_nats`` nats worse or more than
        ``orientation_margin_votes`` more of them read it worse than better (by over
        ``orientation_flip_nats``). People write from the margin; the sheet may also lie
        the other way round, and the voters' word guards against that: with the margin
        found turned by a half turn on each of the 149 dev and validation pages where it
        is found and the voters chose, 9 would have turned (68 with the mean alone).
        (Marks stage on the cached segmentations of bd531de: armies dev2 +2, dev3 +2,
        fresh +7, fresh2 +7, owner +11, letters +15, conquered +1; seven pages read at
        another angle, none worse: dev2 320, dev3 61232, fresh 20010 and 20110, fresh2
        20238 turned right.)
    touch_reach : float
        Line widths within which a stroke touches a border (an underline's test, a
        border piece's contact); at least 2 pixels.
    label_reach : float
        Line widths around a writing component that no country claims within which
        it borrows the commonest country label (about a border's width); at least 6
        pixels.
    labelled_page_fraction : float
        A page is taken to carry letters (country names) when at least this share of
        its countries with writing hold two or more clusters of writing height: there
        the letters are the tallest writing and vote on the orientation themselves.
    split_max : int
        A cluster of several columns of ink is also read cut in two at its this many
        widest gaps between columns ...
    row_split_height : float
        A cluster at least this many writing heights tall is also read cut in two at
        its widest gap between rows of ink (a letter written above or below a number
        groups with it), when both rows hold a piece of ``stack_height`` writing
        heights (an underline or a dot is no row); 0: off. (Dev photos 500-539,
        600-639, 100-139, 300-329, marks stage on HEAD 4640601's segmentations:
        armies 1950 -> 1954 of 2419, 4 read right, none lost.) ...
    row_split_overlap : float
        ... pieces whose heights overlap by less than this fraction of the shorter
        one's height are in different rows ...
    row_split_small : float
        ... or when one row holds a piece of ``stack_height`` and the other one at
        least this many writing heights high that does not lie flat (a country's letter
        written smaller above or below its number: grouped with it as a bar would be).
        (Dev photos, marks stage on a34d228's segmentations, with ``resolve_splits``
        splitting a whole read as a letter and a number: armies 2199 -> 2204 of 2546,
        owner 2374 -> 2379; validation 20000-20299: armies 4004 -> 4006, letters
        1255 -> 1258; 0.25 reads the same.)
    split_min_prob : float
        ... and replaced by its two parts when one reads as a letter and the other as a
        number, both with at least this posterior (a country's letter written next to
        its number groups with it; read whole, "A8" tends to come out as "48").
    split_keep_number : float
        A whole cluster read as a number with at least this posterior is not split
        into a letter and a number read confidently (a "10" whose 0 reads as a D on its
        own). On a lettered page, a country without a letter may still split it by the
        posterior masses (``lettered`` of :func:`resolve_splits`).
    split_not_letters : str
        Letters a part may not be read as for a split: they are also digits ("1O" is
        the number 10, not 1 and the letter O).
    split_letter_mass : float
        On a lettered page (see ``labelled_fraction``) a country with no letter reading
        has its letter grouped with its number: a trial split wins there when one part
        carries at least this much of its posterior on the letters (any letter but
        ``split_never_letters``; the I too) and the other ``split_number_mass`` on the
        numbers, the likeliest such split by the product; the number part keeps the
        whole's underline. (Tuning and dev photos 500-523, 600-639: 0.35 read 7
        countries right that were wrong and 1 wrong; 0.1, 4 more right, none lost.)
    split_number_mass : float
        See ``split_letter_mass``.
    split_never_letters : str
        See ``split_letter_mass`` ("10" is not 1 and the letter O); before the number
        they may be the letter (a number has no leading 0: "O9" is the letter O and 9,
        read whole as 89 or 69). (Marks stage on the cached segmentations at 60b99d9:
        dev armies +3 (tune 530, dev2 317, dev3 061068), owner +3, letters +2,
        conquered r3 +1, tune -1; validation armies fresh 020088 +1, 020045 -1 (an O
        beside a crossed-out 6 split off, the 6 read 1), owner fresh2 +1.)
    letter_beside_prob : float
        On a lettered page, a whole cluster read as a lone letter in a country where no
        whole cluster reads a number is the letter with a thin number grouped with it
        (a "1" beside the letter is read as part of it) when a trial split leaves a
        part with at least this much of its posterior on the letters beside a part
        with ``letter_beside_number`` on the numbers: the parts read as their likeliest
        letter and number (the split likeliest to hold a number). (Dev photos tune,
        s3, r3, dev2 and big 2000-2299, marks stage on HEAD 273dc3e's segmentations:
        3 more numbers right, 8 owners, 3 conquered, 2 letters; no unoccupied lost. A
        number mass of 0.05 read one number fewer right, tried with the letter part
        read as the whole's letter.)
    letter_beside_number : float
        See ``letter_beside_prob``.
    number_min_height : float
        Of several number readings in a country, those at least this fraction of the
        page's writing height come first (a smaller one is a fragment, a speck or a
        piece of ruling), the likeliest of them wins.
    sure_short_number : float
        ... except a reading whose number has two or three digits (10-100, beside a
        letter or not) with at least this posterior: it comes first however small it
        is written (a "100" written small beside a piece of border read as 7: dev
        photos tune 517 and s3 621, the only two of the 750 dev and validation photos
        whose results it changes). The lettered-page rules count it among those of
        writing height too (s3 621 reads its letter).
    labelled_fraction : float
        A page whose countries have a letter reading in at least this fraction of them
        is lettered; there a country with two number readings that come first (of
        writing height, or sure: ``sure_short_number``) and no letter takes the
        reading with the most posterior mass on letters as its letter.
    number_from_letter : float
        On a page that is not lettered, a country whose writing reads only as letters
        takes the likeliest number of the reading with the most posterior mass on
        numbers, when that mass is at least this (1 or more: never).
    fragment_whole_below : float
        A number reading less sure than this whose trial split leaves a number read
        with at least ``fragment_number_prob`` of writing height (``number_min_height``)
        beside a part under ``fragment_height`` writing heights is that number, the
        small part a fragment grouped with it (a sudoku "7" and a piece of the next
        cell's 5 read 71; real sudoku whole reader 838 -> 839 of 864, synthetic
        tuning and dev photos unchanged).
    fragment_number_prob : float
        See ``fragment_whole_below``.
    fragment_height : float
        See ``fragment_whole_below``.
    fragment_nothing_prob : float
        A part read as nothing with at least this posterior is a fragment too, of any
        height, beside a number of ``fragment_number_prob`` when the whole reads
        below ``fragment_nothing_whole_below`` (a stroke of a border grouped with a
        "36" read 6). (Dev photos 500-539, 600-639, 100-139, 300-329, marks stage on
        HEAD 4640601's segmentations: 2 numbers read right, none lost.)
    fragment_nothing_whole_below : float
        See ``fragment_nothing_prob``.
    plain_fraction : float
        A page with a letter reading in fewer than this fraction of its countries names
        none (a sudoku: a stray letter reading is a misread digit, a "4" read as A, a
        "1" as I, a "5" as S) ...
    number_from_letter_plain : float
        ... and there a country whose writing of writing height (``number_min_height``)
        reads only as letters takes its likeliest number when the numbers hold at least
        this of the posterior. (Real sudoku photos, whole reader on the same
        segmentations: 833 -> 838 of 864 digit cells, blanks unchanged; synthetic
        tuning and dev photos, unlettered on none: unchanged. A fraction of 0.1 took
        an unoccupied country's stray letter on a synthetic lettered page.)
    shaped_fraction : float
        A page with a letter reading in fewer than this fraction of its countries names
        few or none of them ...
    number_from_letter_shaped : float
        ... and there a country whose writing reads only as letters takes the likeliest
        number of the reading with the most posterior mass on the numbers when that
        mass is at least this (below ``number_from_letter``) and the number is not all
        ones: a digit of several strokes read as the letter it looks like (a 7 with a
        crossbar as Z, a 9 as Q, an 8 as P, a 3 as J, a 5 as F), where a lone letter
        whose number is a 1 is a stroke (I, L, T), often of no number. Above 1: off.
        (Marks stage on the cached segmentations of 3ced223: armies and owner right
        dev3 4417 -> 4423 and 4790 -> 4795 of 5151, unoccupied countries right 1705 ->
        1704 (061148: a T read for a 7 in an empty country), spurious letters 51 -> 44,
        tune spurious 5 -> 4, s3, r3, dev2 unchanged; validation fresh armies 1780 ->
        1781, owner +1, fresh2 2433 -> 2435, owner +3; no letter lost. With the fraction
        at 0.15 instead, a lettered page whose letters were mostly missed (dev2 000318, 6
        letters read in 54 regions) turned two empty countries' letters C and K into
        numbers (dev3 061139 read one more owner right); with no fraction (below
        ``labelled_fraction``) fresh 020023 too, 3 letters read in 14 countries, its
        letters E and F into 8s. The pages gained are at most 0.083 lettered.)
    letter_pair_number : float
        On a lettered page (see ``labelled_fraction``) a country with no number reading
        and two or more letter readings of writing height holds one letter: the one
        with most of its posterior on the numbers, at least this much, is its number
        (an underlined 7 read as Z beside the country's letter). (Dev photos, marks
        stage on b5641b0's segmentations: 5 countries took a number, 2 of them right,
        owner +4; one kept the wrong one of its two letters.)
    pair_one_letter : float
        On a lettered page, of the number readings of writing height in a country with
        no letter (one of which is its letter, see ``_combine``), a lone "1" whose
        likeliest letter is I with at least this posterior on the letters is the letter,
        whatever the others' letter mass: an I is one stroke, read 1 before I, and a
        digit beside it passes for a letter as readily (dev2 316: a 7 at 0.31 on Z was
        taken for the letter beside an I at 0.23; dev photos and big 2000-2299, marks
        stage on 4f1f456's segmentations: that is the only country the rule changes at
        any bound in 0.01-0.2; an I at 0.0 beside a 6 read G is a 1; above 1: never).
    short_letter_mass : float
        On a lettered page, a country with one number reading that comes first, no
        letter and another number reading that does not (under ``number_min_height``
        and not sure: ``sure_short_number``) with at least this posterior on the
        letters takes the shorter one's likeliest letter as its letter (a country's
        name written smaller than its number: tune 524 I read 1,
        r3 110 H read 4, r3 118 B read 8 beside the number; a 17 at 0.0 beside a 1 is
        no letter; above 1: never).
    lone_number_letter : float
        On a lettered page a country whose only writing reads as a number (no letter)
        with at least this posterior on the letters holds only its letter: an
        unoccupied country's I read as 1, S as 5 (above 1: never).
    plain_letter_number : float
        On a page that is not lettered, a reading of a letter beside a number ("M4") is
        its likeliest number ("14") when the numbers hold at least this of its
        posterior (above 1: never). (0.1 before the seventieth session; 0.05 on the
        750 dev and validation photos, marks stage on the cached segmentations of
        9cb2f52: fresh2 020142's "12" with a bent 1 read "Y2", the numbers 0.06,
        armies +2, owner +1, spurious letters -1, no other photo changed; 0.02 loses
        a conquest on dev3.)
    missing_letter_mass : float
        On a lettered page a country whose only writing reads as a one-digit number
        that could be a letter no country has read (see :func:`_missing_letters`), with
        at least this posterior on the letters, holds only that letter (above 1: never).
    underline_gap : float
        A flat cluster apart from the number is its underline when it lies below the
        number's middle, at most this many writing heights below its box, under at
        least half of it ...
    underline_max_width : float
        ... and at most this many times as wide as the number (wider: a border or
        ruling line). Writing too light for the ink mask is looked for within the same
        bounds below each cluster (an underline drawn lighter or thinner than the
        digits), as a flat piece at least ``underline_min_width`` times as wide as the
        cluster that ends inside the search window (printed ruling runs through it).
    underline_min_width : float
        See ``underline_max_width``.
    underline_border_pieces : bool
        The search below each cluster for an underline too light for the ink mask (see
        ``underline_max_width``) also takes pieces of the region stage's borders that
        lie whole in its window with only the cluster's country around them: an
        underline taken for a border (a stroke no border goes on from).
    underline_stroke : float
        When that search finds no underline, it looks again (1) keeping whole the light
        pieces that do not touch a border (the search leaves out the light ink within
        ``faint_border`` line widths of the borders, their blurred edges; an underline
        drawn just above a border lost its part there and was no flat piece any more)
        and then (2) without the cluster's own pixels (a light underline touching the
        digits joins their lower half in one piece, not flat). A piece so found counts
        only when its pixels are at least this many line widths times its skeleton's
        length (a pen's stroke; printed ruling and grid are thinner, and the ends of
        cross-out strokes below a number measured 0.6-0.9). 0: off. (ul52, session 32:
        cached segmentations, owner dev 2407 -> 2409 (tune +2), validation 4476 ->
        4479 (fresh +3), armies and conquered unchanged; at 0.5 the thinner pieces
        gave 2 more right owners and 4 wrong owners, numbers or cross-outs.)
    underline_cluster_height, underline_cluster_width : float
        A cluster of writing apart from the number counts as its underline (its own
        underline output decides, see :func:`combine`) at most this fraction of the
        writing height tall and this many times as wide as the number (instead of
        ``stack_height`` and ``underline_max_width``), whatever it reads as: a double
        underline reads as "2", a slanted or long one is taller and wider than a dash.
        (Base segmentations of the 150 dev photos, tune s3 r3 dev2: owner +4, none lost;
        0.45 and 2.0 as before.)
    underline_cluster_scaled : bool
        Under a number taller than the page's writing (``Cluster.height`` over 1) the
        height limit ``underline_cluster_height`` is that fraction of the number's own
        height, for a cluster that reads as nothing or as underlined (over
        ``mark_threshold``): a big number's underline is drawn to its size (dev3 061112:
        numbers five writing heights tall, their underlines 0.8 and 1.1 writing heights
        tall, read as nothing). A digit reading not underlined keeps the page's limit (a
        flat stroke read as 1 under a big number is not its underline). (Found by helpers
        ow40 and ow42; marks stage on the cached segmentations of 92aabd7: owner s3 650 ->
        651, dev3 4768 -> 4770, dev3v3 4780 -> 4782, fresh 1906 -> 1907; nothing else
        changed on any dev or validation set.)
    underline_bar_ratio, underline_bar_height : float
        Such a cluster that is no letter and at least ``underline_bar_ratio`` times as wide
        as tall, and at least ``underline_bar_height`` of the writing height tall (thinner:
        a sliver of ruling or border), is an underline whatever the network makes of it
        alone: a bar, an arc or a double line out of context reads as nothing sure.
        (Base segmentations of the 150 dev photos: owner 2105 -> 2111 of 2419, 7
        countries right, 1 wrong: a long piece of ruling under a number.)
    underline_on_border : float
        The underline probability above which a number resting on a border is underlined
        (instead of ``mark_threshold``): border ink under at least
        ``underline_border_cover`` of its width, within ``underline_border_reach``
        writing heights of its box's bottom. An underline that touches a border is taken
        into it by the region stage and out of the number's crop: what the network still
        sees of it is faint evidence (dev photos: 68% of the numbers resting on a border
        are underlined, 40% elsewhere; cached segmentations of the 150 dev photos: owner
        2111 -> 2123 of 2419, 15 countries right, 2 wrong, a gain on every set; 0.1:
        +8). 0.5 or more: off. (Twelfth session, with ``outline_keeps_underline``: 0.1
        within 0.4 writing heights instead of 0.05 within 0.1, cached segmentations of
        the 150 dev photos: owner 2213 -> 2220 of 2501, no set worse; reach 0.2 / 0.3 /
        0.5 / 0.6: 2216 / 2217 / 2220 / 2214; 0.05 within 0.4: 2210; 0.15: 2220.
        Sixty-ninth session, 0.1 -> 0.2 with ``underline_faint`` 0.3 -> 0.4, marks stage
        on the cached segmentations of a3a248a, 750 dev and validation photos: owner
        11975 -> 11989, armies 11224 -> 11226 (dev3 +7, fresh +8, fresh2 -1, tune, s3,
        r3, dev2 unchanged: a flat digit foot or a border close under a number is read
        as its underline less often); 0.15 / 0.2 / 0.3 alone: +7 / +11 / +14 (0.3: tune
        and dev2 -1 each); ``underline_faint`` 0.2 / 0.4 alone: -2 / +3.)
    underline_faint : float
        The underline probability above which a number whose cluster took light ink from
        beside it (``Cluster.faint``: a lighter digit or a light underline the ink mask
        left out) is underlined (``underline_on_border`` when that is lower): its crop
        holds that light ink and paper around it, and the network doubts its underline (150 dev
        photos, numbers read right: 39 of these 50 are underlined, 49% of the others; 4
        of the 7 misread as not underlined read 0.3 to 0.5). (Twentieth session, marks
        stage on the cached segmentations: owner 2366 -> 2369 of 2543 (s3 +1, dev2 +2,
        tune and r3 unchanged); validation fresh + fresh2 4397 -> 4399.)
    underline_border_reach, underline_border_cover : float
        See ``underline_on_border``.
    underline_border_inside : float
        Writing heights above its box's bottom from which border ink under a number
        counts (a number's foot may overlap the line it rests on).
    underline_border_side, underline_border_boxed : float
        A number with border ink above it (within ``underline_border_reach``) and on both
        sides (within ``underline_border_side`` writing heights), each along at least
        ``underline_border_boxed`` of the box, sits in a cell of its own (a sudoku's):
        the border under it is no sign of an underline and ``underline_on_border`` does
        not apply. (Thirteenth session, 864 digit cells of the 24 real sudoku photos,
        marks stage on their cached segmentations: read as underlined 86 -> 50, digits
        and blanks unchanged; 150 dev photos, cached segmentations: owner 2251 -> 2250
        of 2503 (tune +1, s3 -2, r3 +1, dev2 -1); the box above alone, without the
        sides: also 50, owner 2245.)
    underline_ruled : bool
        A number read as underlined whose crop holds printed ruling (see
        ``ruling_contrast``) is read again with the ruling taken out, unless a pen stroke
        shaped as an underline is left under the digits (apart from them, see
        ``underline_apart_height``, or touching them, see :func:`_touching_stroke`): the
        underline probability is the view's when it is lower than the reading's and
        than ``underline_ruled_below`` (a ruling line under or through the digits is no
        underline). (Fourteenth session, cached segmentations of the
        150 dev photos: owner 2250 -> 2256 of 2503, 9 false underlines gone, 3 right
        ones lost; tune +1, s3 +4, r3 -2, dev2 +3; without the pen-stroke exception 9
        gone, 6 lost. Real sudoku photos: digit cells read as underlined 50 -> 46.)
    underline_ruled_below : float
        The underline probability of that view below which it is taken (a clear no of
        the view); an unsure one leaves the reading's (fifty-fourth session: of the
        underlines taken back, 17 were false and 28 true on the 750 dev and validation
        pages, the true ones mostly read 0.2-0.5 without the ruling).
    underline_apart_height, underline_apart_ratio, underline_apart_width : float
        An underline apart from the digits (:func:`_apart_underline`): an ink component at
        most ``underline_apart_height`` writing heights high, at least
        ``underline_apart_ratio`` times as wide as high, in the lower half of the
        writing, under other writing and at least ``underline_apart_width`` times as
        wide as that writing (or as 0.6 writing heights when it is narrower).
    bar_elongation : float
        A component is a straight bar (a candidate underline) when its length is at
        least this many times its width (ratio of the principal axes).
    border_piece_elongation : float
        A writing component this elongated (principal axes) touching a border is a
        piece of it and is left out (it would read as a "1") ...
    border_piece_flat : float
        ... unless within this many degrees of horizontal (an underline) ...
    border_piece_contact : float
        ... and when at least this fraction of its pixels lie within
        ``border_piece_reach`` of the border (it runs along it).
    border_piece_reach : float
        Line widths (at least 2 pixels) within which a pixel of such a bar lies on the
        border, when the clusters are cut for reading ... (A sliver of a printed grid
        line left in the writing mask beside a digit lies a line width off the line:
        "8|" was read 81. Real sudoku photos, whole reader: 1.0 instead of 0.45 reads
        one more digit cell right; dev photos 600-639 armies +0.2 points.)
    border_piece_vote_reach : float
        ... and when they are cut for the orientation vote. (1.0 there too turned a
        dev photo's vote, whose voters read best at the wrong angle already: 0.45.)
    border_continue_length : float
        When the clusters are cut for reading (not for the orientation vote), a thin
        writing component (principal axes at least ``border_continue_elongation``
        apart, at most ``border_continue_thickness`` line widths thick) is a piece of a
        border when border ink goes on in its line beyond BOTH its ends: within
        ``border_continue_width`` line widths of its axis, over at least
        ``border_continue_cover`` of the first this-many line widths past each end
        (plus ``border_piece_reach``), and running within ``border_continue_angle``
        degrees of the axis (a border met across, or at a slant, fails), and the bar at
        least ``border_continue_thick_ratio`` as thick as the line on either side where
        it is found (pixels per unit length: a sliver left beside a line, or a pen
        stroke drawn along a printed line, is thinner). Flat ones too: an underline that runs into
        borders meets them across. (Real sudoku photos,
        whole reader: the printed grid line under a page's heading, left in the
        writing where the heading touches it, was read with the digit below: "8"
        read 5, "9" read 6 under "Fiendish"/"Difficult"; cells right 839 -> 842.)
    border_continue_elongation, border_continue_thickness : float
        See ``border_continue_length``.
    border_continue_width, border_continue_cover, border_continue_angle : float
        See ``border_continue_length``.
    border_continue_thick_ratio : float
        See ``border_continue_length``. (Without it, thin slivers along ruling and
        border lines on dev photos 604, 615, 618, 636 and 638 were taken too, and
        underlines and numbers changed, some for the worse; the sudoku heading bars
        are 0.90-1.14 times as thick as the thicker side.)
    bar_vote : float
        Underlines vote on the writing's orientation too: a trial rotation gains this
        many nats (on the voters' mean log-likelihood) times the fraction of underlines
        (at least 3 counted) that it turns upright within ``bar_vote_width`` degrees.
        (Fifty-seventh session, 1.0 -> 0.5: one bar out of three counted outvoted a page
        whose voters read 0.24 nats better the other way up, fresh 020110; marks stage on
        the cached segmentations of 1ae9bde, all 750 dev and validation pages: armies r3
        689 -> 690, dev3 4450 -> 4454, owner r3 +3, dev3 +2, conquered r3 +2, dev3 +1,
        no page worse (r3 134, 139, dev3 061216 turned right); 020110 stays wrong, its
        flip check is split. 0.25: fresh +7 (020110 right) but tune, dev2 and fresh2
        lose 4; 0.75 reads every one of the 750 pages as 0.5 does.)
    bar_vote_width : float
        See ``bar_vote``.
    bar_read_underlined : bool
        An underline votes only when the network, reading its cluster turned the way it
        says is up, finds the cluster underlined. A 1 beside its digit, or a stroke of
        ruling, passes for an underline to the geometry (``bar_elongation``) and turned
        pages a quarter or half turn: of 1211 bars on fresh seeds 20000-20299, 799 were
        within 20 degrees of the writing and 412 not; the network finds 787 of the first
        underlined and 278 of the others (dev sets: 418 of 425, 110 of 148). Pages read
        at a wrong orientation there: 11 of 300 -> 7, none on the dev sets changed.
    underline_vote : float
        The network's own underline output votes as well (an underline that touches its
        number is in the number's crop and never a separate bar: felt pen): in the coarse
        choice of orientation a trial rotation gains this many nats times the share of
        voters it reads as underlined (probability over ``mark_threshold``), out of at least
        ``orientation_clusters`` (a page of few voters gets less say); upside down the line
        is above the number and does not count. On the HEAD segmentations of tune + s3/dev +
        r3/dev (104 photos) and the 24 real sudoku photos, 0.5 turns two pages right (s3 621
        and 622, read 180 and 90 degrees off) and none wrong. (As a share of the voters of
        each round, any value from 0.4 to 0.65 turned the same pages right, 0.7 three wrong;
        but then a lone voter's grid corner turned a one-cell page, tests'
        test_a_grid_corner_along_the_outline_is_left_out_of_the_digit.)
    faint_reach : float
        Writing too light for the region stage's ink mask is looked for this many
        writing heights either side of each cluster ...
    faint_level : float
        ... as pixels at least this fraction as dark as the cluster's strokes ...
    faint_min_height : float
        ... forming pieces at least this fraction of the writing height (and at most
        1.5 times it), in the same country, touching no other ink, side by side with
        the cluster at most ``faint_gap`` writing heights away: a digit written lighter
        than the rest of its number (a letter beside it stands further off).
    faint_gap : float
        See ``faint_min_height``. (0.25 -> 0.35 with ``faint_stroke``: the light "1" of
        s3 606 D (14) and 631 S (12) stood 0.26-0.31 writing heights off its digit.)
    faint_border : float
        Faint ink within this many line widths of a border is the border's blurred
        edge, not writing.
    faint_stroke : float
        In the cut for reading (the orientation vote's voters stay as they were), a
        piece whose pixels are fewer than this many line widths times the length of its
        skeleton is thinner than a pen's stroke: printed ruling or grid (a cross or
        corner of it that the borders' edges and the cluster cut out, read as a "1"
        beside the number), not added. Of the pieces the search added on the 150 dev
        photos, ruling mostly measured 0.15-0.45, light digits 0.41 and more. 0: off.
    faint_ruling : bool
        In the cut for reading on a page that may be ruled (``Segmentation.ruled``), a
        piece that is printed ruling by :func:`_ruling_piece` (straight bars along the
        page's sides, one going on in the light ink beyond it) is not added either: a
        blurred grid is as thick as a pencil's stroke, and the stretches of its lines
        that the cluster and the borders cut out beside a number read as a 1 or a 7
        before or after it (7 -> 17, 2 -> 27). False: off.
    faint_underline_ruling : float
        Likewise, in the cut for reading on a page that may be ruled, an underline too
        light for the ink mask (:meth:`_Cutter._faint_underline`) that is printed ruling
        by :func:`_ruling_piece` is taken only when its pixels are at least this many
        times as dark (medians) as the light ink beside it in its rows, within a writing
        height on either side, or when there is none there: a pencil underline drawn
        along a Seyes line is darker than the line; a stretch of the line is not. 0:
        off. (Marks stage on the cached segmentations of d053c09: armies right tune
        +2, dev3 +1, fresh +1, fresh2 +2; owner +8, conquered +2, letters +2, exact
        maps +1; s3 606's three pencil underlines on Seyes lines kept (ratios 1.2-1.4,
        the refused stretches 0.9-1.05); one owner lost (fresh2 020292, 1.13), one
        army (dev3 061225). Refusing every such piece: s3 606 lost three owners.)
    outline_margin : float
        Ink of a cluster outside its country or within this many line widths of the
        country's outline (its edge or a border) is left out of the crop read when it
        makes a piece at least ``outline_piece`` writing heights long there: a printed
        grid corner or frame line beside a digit (a sudoku cell's), a header's text
        grouped with it. Not for the orientation vote's crops (0 turns it off).
    outline_piece : float
        See ``outline_margin``.
    outline_keeps_underline : bool
        ... except an underline drawn close to a border: a flat piece in the lower half
        of the cluster, mostly inside the country (``outline_underline_inside`` of its
        pixels), under the rest of the cluster's ink as wide as
        ``underline_min_width``-``underline_max_width`` times it (see
        :func:`_band_underline`). (Cached segmentations of the 150 dev photos: armies
        2034 -> 2037, owner 2208 -> 2213, conquered 3294 -> 3295 of 3499; real sudoku
        unchanged.)
    outline_underline_inside : float
        See ``outline_keeps_underline``.
    residue_bar_length : float
        A component is made of straight bars parallel to the page's sides when opening
        it with a line as long as this fraction of its width (height) keeps ...
    residue_coverage : float
        ... at least this fraction of its pixels; two such thin bars crossing inside
        the box are a crossing of printed ruling lines, left behind by the ruling
        removal.
    residue_max_size : float
        ... when neither side of its box is longer than this many line widths (a
        crossing, not a character).
    light_seed : float
        In a country that holds no cluster of writing height, writing too light for the
        region stage's ink mask (a light pencil) is looked for: pieces of pixels at
        least ``light_low`` darker than the local paper (a fraction of its brightness;
        the grain of a pencil's strokes closed over ``light_close`` line widths), off
        the borders' blurred edges (``faint_border``), with a pixel at least this dark
        and none darker than ``light_max`` (ink the region stage left out on purpose),
        ``light_min_height`` to ``light_max_height`` writing heights high and at most
        ``light_max_width`` wide, and not printed ruling (see ``light_bar_span``).
        Their clusters are read after the orientation vote, and count only as a
        number of at least ``light_min_prob`` posterior that is not all ones (a lone
        stroke: a piece of a line); otherwise as nothing. (On the synthetic tuning and
        dev photos, 500-523 and 600-639, 8 pencil numbers were read where nothing was
        before; 1 unoccupied country took a number. Erased pencil, 0.1-0.25 times as
        dark as the pencil, stays below the seed.) 1 or more: off.
    light_low, light_close, light_max, light_min_height : float
        See ``light_seed``.
    light_max_height : float
        See ``light_seed``. (A pencil number closed with its pencil underline stands up
        to about twice the writing height. Marks stage on the cached segmentations of
        a88ca70: 1.5 -> 2.0 read 3 more dev3 numbers right (61103, 61126, 61195), the
        other dev sets and validation unchanged.)
    light_max_width : float
        See ``light_seed``.
    light_min_prob : float
        See ``light_seed``. (Dev photos 500-539, 600-639, 100-139, 300-329, marks
        stage on HEAD 4640601's segmentations: 0.85 -> 0.5 found 11 more pencil
        numbers, armies right 1954 -> 1958 of 2419; 2 unoccupied countries took a
        number and a ghost's reading beat a number below writing height. 0.7 read 4
        armies fewer right than 0.5, 0.3 two more and 1 more unoccupied lost.)
    light_letter_mass : float
        A light cluster read as one letter with at least this posterior mass on the
        letters counts as its country's letter, never as a number, in a country where
        no cluster of the ink mask reads a letter (the number may be of the ink: a
        labelled page's letters in light pencil beside its numbers in pen), and only on
        a page where these letters and those of the ink name ``labelled_fraction`` of
        its countries (ghosts and printed marks read as scattered letters, when at all).
        Above 1: off (light writing then counts only as a number, see ``light_seed``).
        (Marks stage on the cached segmentations of f9459f7, 0.9: letters right dev3
        1151 -> 1191 of 1394, dev3v3 1169 -> 1205, tune +1, s3 +1, r3 and dev2
        unchanged; armies dev3 and dev3v3 +2, owner +1 (061214, a page then read as
        labelled); validation letters fresh +2, fresh2 +4; no letter lost, no spurious
        letter, no other change anywhere. 0.75 read 5 more dev3 letters, 4 more dev3v3
        ones, but lost a validation number, fresh2 020255.)
    unique_light_mass : float
        On a lettered page (see ``labelled_fraction``) a country left with no letter
        once its marks are read takes the letter that a whole light cluster of it reads
        as one letter with at least this posterior mass on the letters (below
        ``light_letter_mass`` too), or a part of a trial split of its writing with at
        least ``unique_part_mass`` (an "O" beside a "2" read as "20" whole), when no
        other writing of the page reads that letter (each letter names one country: a
        letter read twice is a misreading at least once), no country has it and it
        comes before the page's last letter read (as ``missing_letter_mass``). The
        letter only: the country's number and marks stay as read (counting the light
        letter before the numbers are read put its country among those with a letter,
        where a split of a letter and a number needs more evidence: with
        ``light_letter_mass`` 0.75, fresh2 020255's 27 became a 2). Above 1: off.
        (Marks stage on the cached segmentations of 680ce13, 0.6 and 0.9: letters right
        tune 146, s3 217 -> 218, r3 232 -> 233, dev2 158 -> 159, dev3 1191 -> 1204 of
        1394, dev3v3 1205 -> 1219 of 1404; validation fresh 399 -> 400, fresh2 875 ->
        880; no letter lost, spurious letters, armies, owner, conquered unchanged
        everywhere; every letter given on the dev sets right. Without the last letter's
        test dev3 061096's extra region (no country of the truth) took an O and fresh2
        one more right (881). The light letters alone: dev3 +7, dev3v3 +6 (061214 L, N, G, M, S,
        061152 L, 061153 A); all 13 dev3 and dev3v3 light letters of 0.5-0.9 that are
        unique on a lettered page are right, the 7 that are not unique are wrong (the
        letter of another country or a stroke read "I"), and the unique ones on pages
        not lettered are ghosts. Parts of 0.7 instead of 0.9: one dev3 letter more
        (061040 H at 0.73), the other dev sets unchanged; below 0.65 dev3 061170 would
        lose its H (1.00) to an A at 0.65 in the same country: kept at 0.9.)
    unique_part_mass : float
        See ``unique_light_mass``. Above 1: no part of a split counts.
    light_not_ones : bool
        See ``light_seed``: a light cluster of one component read as "1" is no number (a
        lone stroke: a piece of a line or of printed grid); "11" counts, of one
        component as well (two pencil strokes close enough to merge when the grain is
        closed). (Marks stage on the cached segmentations of a88ca70: with "11" of one
        component left out too, 3 dev3 pencil "11"s read nothing: 61142, 61186, 61214.)
    light_one_prob, light_one_share : float
        See ``light_not_ones``: on a page whose light writing reads numbers (at least
        ``light_one_share`` of its whole light clusters count as one, and one at least),
        a light stroke read "1" of at least ``light_one_prob`` posterior that stands
        upright (at most ``stroke_one_slant`` degrees off) counts: a pencil "1" of a map
        written in light pencil. The light ones of a page whose light clusters read
        nothing are pieces of printed grid (crosses, most read "1" at 0.9-0.99) or of
        lines. ``light_one_prob`` above 1: off. (Marks stage on the cached segmentations
        of f0368d7: big armies 4168 -> 4176, owner 4522 -> 4530, conquered 6828 -> 6830
        (2059, 2105, 2218, 2294); validation armies 4109 -> 4111, owner 4451 -> 4454; dev
        unchanged (tune 535's "1" is its page's only light cluster). Without the upright
        test a grid cross in an unoccupied country of big 2182 took a "1" (validation
        armies one more right); without the page's share, 4 unoccupied dev countries
        took one (tune 537, r3 139, dev2 307) for 1 number right (tune 535).) (Fifty-seventh
        session, ``light_one_prob`` 0.9 -> 0.8, marks stage on the cached segmentations of
        1ae9bde: armies fresh 1796 -> 1800, dev3 4450 -> 4455, owner alike, letters dev3
        1225 -> 1224 (061214), every other set and count unchanged: pencil pages whose "1"s
        read 0.8-0.9 (fresh 020021, 020074, dev3 061031, 061272). 0.7 took three "1"s in
        unoccupied countries of fresh 020021 for one more owner right.)
    light_relative : float
        See ``light_seed``: the seed is also at least this fraction of the 90th
        percentile of the ink mask's darkness around (erased pencil is several times
        lighter than the writing). (Dev photos 500-539, 600-639, 100-139, 300-329, marks
        stage on HEAD 1d0e84d's segmentations, with ``light_labelled`` and
        ``light_line``: 0.3 -> 0.2 read 2 more numbers right and 1 wrong instead of
        nothing, none in an unoccupied country; 0.25 neither of the three, 0.15 the same
        as 0.2.)
    light_labelled : bool
        On a page that looks labelled (see ``labelled_page_fraction``) a country's
        letter is a cluster of writing height: light writing is also looked for in the
        countries with at most one such cluster (its number may be the light writing),
        off their ink by ``light_gap`` line widths. A light number counts only in a
        country where no whole cluster of the ink mask of writing height reads a number.
    light_beside_any : bool
        See ``light_labelled``: light writing is looked for beside one cluster of
        writing height on every page, not only on one that looks labelled. (Set by
        ``light_labelled_again``. On for every page instead, marks stage on the cached
        segmentations of a88ca70: 2 dev numbers more right than with the reading again
        (dev2 322, dev3 61031), but on the validation photos 2 more right and 3 wrong
        of unlabelled pages: a light piece beside an ink number taken as its underline
        or a digit of it, 12 read 16, 10 read 100.)
    light_labelled_again : bool
        A page whose letters (the readings) say it is labelled though it did not look
        labelled when its light writing was looked for (every number in light pencil:
        no country held two clusters of writing height) is read again with
        ``light_beside_any``: its countries' numbers may be the light writing beside
        their letters. (Marks stage on the cached segmentations of a88ca70: dev3 61267,
        a lettered page in blue ink with every number in pencil, 11 more numbers right,
        61078 2 more; other dev sets unchanged, validation unchanged; a reading again
        on 25 of the 480 dev pages.)
    light_gap : float
        See ``light_labelled``.
    light_line : float
        On a page that may be ruled (``Segmentation.ruled``), light ink on printed
        ruling is left out of the light pieces: rows (columns) of it at least this many
        writing heights long, along the page's sides; the strokes crossing a line stay
        whole (a pencil number merged with the ruling is too tall, and its crop carries
        the line). 0: off. (Same photos: 2.0 -> 1.5 one more number read; 1.25 the
        same, 1.0 one unoccupied country took a number; off: 5 more unoccupied
        countries took a number.)
    light_bar_span : float
        A light piece is printed ruling when at least ``residue_coverage`` of its pixels
        lie on straight bars parallel to the page's sides running across this fraction
        of its box, one of which goes on beyond the box (the light ink over at least
        half of a writing height on either side): handwriting stops where it ends.
    fainter_low : float
        Thin writing in a fine faint pen (strokes a pixel or two wide, 0.1-0.2 darker
        than the paper at most) breaks into specks at ``light_low``: in a country where
        the search of ``light_seed`` found no piece, the pieces at least this dark (same
        seeds, closing, sizes and tests) are looked for when its paper is clean
        (``fainter_paper``), and count only as a number of at least
        ``fainter_min_prob`` posterior. 0: off. (Marks stage on the cached
        segmentations of a26b529: dev armies right 2226 -> 2230 (tune 538 -> 539, s3
        588 -> 591: s3 604's 6, 7 and 9), validation 4103 -> 4105, big 4149 -> 4151,
        no country read right before read wrong and no unoccupied country took a
        number. Lowering ``light_low`` to 0.04 for every country instead: dev -5,
        unoccupied countries took 6 numbers; also in the countries whose pieces at
        ``light_low`` read nothing, when clean: dev +6, but validation fresh2 -1, big
        conquered -1.)
    fainter_paper : float
        See ``fainter_low``: the most the 75th percentile of the darkness of a
        country's free pixels (its paper's grain) may be. (Dev photos: 0.02 kept 4
        unoccupied countries of grainy pages (0.025-0.05) from taking a number and
        lost one number (tune 510, ruled paper, 0.1); 0.03: one unoccupied country
        took a number.)
    fainter_min_prob : float
        See ``fainter_low``. (The numbers of the dev and big photos found so were
        read at 0.72-0.996 posterior; none wrong even with no threshold: the clean
        paper is what keeps the noise out.)
    view_threshold : float
        A number reading of writing height (``number_min_height``) whose posterior is
        below this is read again turned by each of ``view_angles`` degrees (the same
        crop: a slant or an orientation a few degrees off), and takes the text of
        the mean posterior of the views (its own included) when that is a number.
        (Real sudoku photos, whole reader on the same segmentations: 829 -> 838 of
        864 digit cells, marks stage alone 845 -> 849; tuning 500-523 armies 75.7 ->
        77.2, dev 600-639 73.8 -> 74.7. The synthetic photos have 3 to 5 doubtful
        numbers per 20 countries: 7 to 9 more crops for the network.)
    view_angles : tuple of float
        See ``view_threshold``; empty: off.
    view_nets : tuple of str
        The other networks ("crossed": ``models/marks_crossed.onnx``, "second":
        ``models/marks_second.onnx``) that read each view of a doubtful number too (see
        ``view_threshold``); the mean posterior is over every view of every network.
        The networks, trained or fine-tuned on other data, err on other crops: of the
        doubtful numbers (first network below 0.7) of the 150 dev photos' clusters that
        hold a true plain number, the first network's views alone read 108 of 185 right,
        with both networks 113; of the 300 photos of big, 233 -> 262 of 419. (Marks
        stage on cached segmentations, base ad84fe7: armies tune 532 -> 536, s3 584 ->
        588, r3 675 -> 673, dev2 424 -> 425, fresh 2169 -> 2179, fresh2 1897 -> 1911,
        big 4027 -> 4043; real sudoku photos, whole reader, 856 -> 855 of 864 digit
        cells.) Empty: the first network alone.
    view_light : bool
        Light clusters (found by the light-writing search, see ``light_seed``) are read
        again turned too (see ``view_threshold``). Off: their crop is the light pieces
        of a faint stroke, and its turned views' mean posterior turned a right but
        doubtful light number into another (s3 604 AF: '4' at 0.52 -> '1' at 0.42).
        (Marks stage on cached segmentations, base 0286278, on -> off: armies dev 2233
        -> 2234 (s3 +1), owner 2390 -> 2392; validation armies unchanged, owner +3; big
        armies +1, owner +1; no photo worse; found by m46.)
    view_shears : tuple of float
        More views of those doubtful numbers when read crossed out (see
        ``view_shear_crossed``): the crop sheared across by each of these (horizontal
        shift per unit of height, positive leaning the top to the right), averaged with
        the turned ones: a digit struck through, writing slanted otherwise than the
        network knows. Empty: none. (Marks stage on the cached segmentations of the 150
        dev photos, base 7a286bc: armies 2072 -> 2082 of 2503, tune 504 -> 507, s3 543
        -> 546, r3 649 -> 650, dev2 376 -> 379; crossed-out numbers read right 322 ->
        331; 11 countries right, 1 wrong, 15 wrong otherwise. Sheared numbers of any
        kind: also 2082 but 15 right and 5 wrong, a real sudoku 1 read 7, and twice the
        views; +-0.15: 2075, +-0.25: 2079, +-0.3: 2077, -0.2 alone: 2078. Stretched
        across x1.3 as well: 2080, sure single digits read as pairs about as often as a
        lost digit found.)
    view_shear_crossed : float
        See ``view_shears``: the crossed-out probability from which a doubtful number
        is also read sheared. 0: every doubtful number.
    ones_stretch : float
        A "1" of writing height read with a posterior below ``ones_stretch_below`` is
        read again stretched this many times across, and is "11" when that view reads
        "11": two ones written close together come out as one glyph (CTC needs a gap
        between repeated characters), a single one stays one. 1: off. (Dev photos
        500-539, 600-639, 100-139, 300-329, marks stage on HEAD 4640601's
        segmentations: armies 1945 -> 1950 of 2419, 5 of 14 "11" read as 1 read
        right, none lost.)
    ones_stretch_below : float
        See ``ones_stretch``.
    ones_double_least : float
        A whole cluster of writing height whose reading ends as "1" with a posterior
        below ``ones_double_below`` is "11" when the first reading of its crop gave
        "11" at least this posterior (over the closed vocabulary, see
        :func:`digits.closed_vocabulary`): the network reads two ones written close as
        one (it must see a gap between them to read the 1 twice), sure of the one
        stroke though the pair keeps some posterior; a lone 1 leaves the pair almost
        none. Its posterior is the pair's. Above 1: off. (Marks stage on the cached
        segmentations, final "1" readings: dev3v3 11 of 29 misread 11s right, 2 of 294
        ones lost; dev3 15 of 33 and 3 of 294; other doubled digits gain nothing.)
    ones_double_below : float
        See ``ones_double_least``.
    ones_double_letter : float
        See ``ones_double_least``: not for a reading with at least this much of its
        posterior on the letters (a letter's strokes read as "1": an N, an M). (Dev:
        the one 1 lost on dev3 had 0.64, the pairs won at most 0.37.)
    nothing_number_mass : float
        A whole cluster of one component and writing height (``number_min_height``)
        read as nothing with at least this much of its posterior on the numbers is its
        likeliest number, the numbers' mass its posterior: a crossed-out digit spreads
        its posterior over several numbers, none likelier than nothing. 1.01: off.
        (Dev photos, marks stage on 91e52f7's segmentations: armies +3, owner +15,
        conquered +12, 2 unoccupied countries took a number; of several components,
        3 empty sudoku cells read 7.)
    nothing_number_pieces : int
        A country with no number or letter reading takes the likeliest number of its
        whole cluster of the ink of writing height read as nothing when the cluster is
        at most this many components (more than the one of ``nothing_number_mass``) and
        the numbers hold at least ``nothing_number_mass`` of its posterior together. 0:
        off. (Marks stage on the cached segmentations, ffaa871 with it,
        ``shaped_fraction`` 0.15 then: owner dev3 4796 -> 4797, tune, s3, r3, dev2
        unchanged; validation fresh owner +1, fresh2 armies 2435 -> 2436, owner +3;
        unoccupied countries read right unchanged everywhere; every cluster it took was
        of two components. At a mass of 0.3: armies +4 and owner +18 over the seven
        sets, but 13 unoccupied countries took a number. Three pieces: the crossing of
        a real sudoku's grid lines, read 0.57 on the numbers, took a 7.)
    stroke_one_height, stroke_one_width, stroke_one_mass : float
        A whole cluster of one component read as nothing, at least
        ``stroke_one_height`` writing heights high and at most ``stroke_one_width`` of
        its height wide, with at least ``stroke_one_mass`` of its posterior on the
        numbers, is a "1" with the numbers' mass as its posterior: the network takes a
        lone straight stroke for a bar. (Dev photos, marks stage on 91e52f7's
        segmentations: 11 lone ones found, 2 unoccupied countries took a 1.)
    stroke_one_elongation, stroke_one_slant : float
        ... or wider than ``stroke_one_width`` (a thick or slanted stroke), a straight
        stroke at least ``stroke_one_elongation`` times longer than wide (its second
        moments) at most ``stroke_one_slant`` degrees off upright. 0: off. (Dev photos,
        marks stage on b5641b0's segmentations: 2 lone ones found, none taken where
        there is none; a crossed-out 5 that a width of 0.5 took for a 1 stays nothing.)
    stray_height, stray_flat : float
        A one-digit number reading of a cluster less than ``stray_height`` writing
        heights high is a stray mark (a speck, a piece of a border or of the grid), and
        so is any number reading of a cluster under ``number_min_height`` high and more
        than ``stray_flat`` times wider than high (a flat stroke): the country holds no
        number by it (see :func:`_stray`). 0 and infinity: off. (Dev photos, marks stage
        on 16f2a82's segmentations: 9 unoccupied countries no longer read with a number,
        no number lost; 0.45: 19 instead of 9, but 4 numbers lost on dev, 15 on the
        validation photos.)
    line_one_reach : float
        A "1" read of one stroke (a whole cluster of one component) whose line goes on
        beyond both its ends is a piece of printed ruling that the ink mask kept, not a
        number: looked for over this many writing heights past each end, along the
        stroke's axis in the page's grey (see :func:`_on_line`). 0: off. (Marks stage
        on a34d228's segmentations: 6 more of the 1017 unoccupied countries of the 150
        dev photos read as such, 9 more of the 1767 of the 300 validation photos;
        armies right +1 and +0. 0.6 or 1.5 writing heights: about the same.)
    line_one_dark, line_one_cover : float
        See ``line_one_reach``: the line goes on where at least ``line_one_cover`` of
        the points past each end are at least ``line_one_dark`` times as dark (over the
        paper) as the stroke.
    ones_pair_height : float
        On a page that names no countries, a whole cluster of two components (or of
        one to ``ones_pair_pieces``, under the guards of ``ones_pair_joined_mass``) not
        read as a number other than 1 whose ink is two straight strokes side by side (each
        at least ``stroke_one_elongation`` times longer than wide), each at least this
        many writing heights high, is "11" (two ones written close read as one, or as
        a letter: N, U, D); the numbers' mass its posterior (see
        :func:`_stroke_pairs`). 0: off. (Dev photos, marks stage on 7222539's
        segmentations: armies right 2204 -> 2207 of 2546, none lost; validation photos
        20000-20299: 4006 -> 4008, none lost.)
    ones_pair_named : float
        On a page that names its countries, the same (see ``ones_pair_height``) for a
        cluster of a country whose letter another whole cluster reads as, at least this
        posterior: a country holds one letter, so the two strokes beside it are no
        letter (an I grouped with a 1 reads as the pair too). Above 1: off. (Marks stage
        on the cached segmentations: dev3v3 061130 M and validation 020033 right, none
        lost.)
    ones_pair_slant, ones_pair_parallel : float
        See ``ones_pair_height``: the two strokes lean at most ``ones_pair_slant``
        degrees off upright (a page's writing turned a little off its rows leans its
        ones alike) and within ``ones_pair_parallel`` degrees of each other.
    ones_pair_level : float
        See ``ones_pair_height``: the two strokes are side by side when at least this
        fraction of the shorter one's height is level with the other.
    ones_pair_open : float
        See ``ones_pair_height``: ink that is one piece in the crop is opened by a
        vertical line this many writing heights long (the pieces across thinner than
        that are taken off: what is left of a printed line through both strokes, a
        touch) and looked at again. 0: off.
    ones_pair_joined_mass : float
        See ``ones_pair_height``: on a page that names no countries, a whole cluster of
        one component (the two strokes touch, or a printed line's remnant joins them),
        or of more than two (a printed line's remnants beside them), is "11" only
        when at least this much of its posterior is on the numbers, and the thinner
        stroke (pixels per row) at least ``ones_pair_alike`` times as wide as the
        other.
    ones_pair_alike : float
        See ``ones_pair_joined_mass``. (These three, forty-sixth session, marks stage on
        dea82fc's segmentations, armies right: dev photos 500-539 540 -> 541, 61000-61299
        4411 -> 4414 (owner 4788 -> 4789), 100-139, 300-329 and 600-639 unchanged;
        validation photos 20000-20119 1777 -> 1780 (owner +1), 20120-20299 2431 -> 2433
        (owner +1); no photo reads anything worse. Read again with ``ones_pair_open``
        0, four of seven of these photos lose their new "11": the rest are one
        component only in the page's ink, two in the crop.)
    ones_pair_pieces : int
        See ``ones_pair_height``. (Forty-sixth session, 4 against 2, marks stage on
        dea82fc's segmentations: armies right on dev photos 61000-61299 4414 -> 4417
        (owner +1, spurious letters -1), every other count of every dev and validation
        set as before; no photo reads anything worse. Without the guards of
        ``ones_pair_joined_mass``, tune photo 500 lost a 1 beside a grey stroke.)
    grid_low, grid_span, grid_margin, grid_keep : float
        Printed ruling left in a number's crop (see :func:`_printed_lines`): a row or
        column band of ink between ``grid_low`` and ``grid_keep`` of the writing's
        darkness covering ``grid_span`` of the crop's window on both sides of the
        cluster (each side at least ``grid_margin`` writing heights) is taken out of
        the crop before the network reads it (a printed line through the digits reads as
        a strike). ``grid_span`` 1 or more: off.
    grid_find : float
        A printed line is found among ink up to this much of the writing's darkness
        (at least ``grid_keep``; only its pixels lighter than ``grid_keep`` are taken),
        off the region stage's borders (a sudoku's grid). 1 (was ``grid_keep`` 0.5):
        ruling on a pencil page is about as dark as the writing.
    ruling_contrast : float
        A number read as crossed out (after ``second_crossed``) is read again with the
        printed ruling running through its window taken out of its crop (see
        :func:`_ruling_darkness`): a straight line at the slant of the ink's edges around
        the cluster (or ``ruling_step`` degrees either side, within ``ruling_angle`` of
        the window's rows or columns) whose median darkness on both sides of the
        cluster's box exceeds the sides' paper by at least this fraction of the
        writing's darkness. The crop's pixels along it no darker than ``ruling_keep``
        times the line are blanked (a pen stroke crossing it is darker); the networks'
        word on the cleaned crop decides the cross-out, and its text replaces the
        reading's when it is a number read more surely. A printed line through the
        digits reads as a strike: on the dev photos 5-9% of the numbers on grid paper
        were read as crossed out that were not, 2% on plain paper. (Cached
        segmentations of the 150 dev photos: conquered right 3246 -> 3271 of 3465,
        invented cross-outs 91 -> 67, real ones found 351 -> 352; armies 2007 -> 2011.)
        1 or more: off.
    ruling_keep, ruling_angle, ruling_step : float
        See ``ruling_contrast``.
    ruling_sheared : bool
        The numbers read as crossed out are also read cleaned of the ruling at each
        family's own slant (see ``ruling_contrast``: the lines along the rows at the
        slant of the edges that point up or down, those along the columns at the slant
        of the edges that point sideways), and the cross-out is the least that either
        cleaned view reads: the camera's perspective shears a squared page's grid, whose
        columns then do not lie square to its rows, and a column left in the crop reads
        as a strike; a pen's strike is darker than the ruling and stays in both views.
        That view's text is not taken (a digit's stroke along a column goes with it: a
        4 read as 1 or 2). False: off.
    ruled_text_least : float
        The cleaned crop's text (see ``ruling_contrast``) replaces the reading's only
        with at least this posterior: a crossed-out number's reading is often doubtful
        (posterior 0.1-0.4), and a cleaned one barely surer is as often wrong. (Marks
        stage on the 32nd session's cache, against 042325a: armies tune 552 -> 553,
        dev2 428 -> 430, s3 and r3 unchanged; fresh 1754 -> 1757, fresh2 2368 -> 2372,
        big 4225 -> 4232; owner, conquered, matched and sudoku unchanged. 0.5: one
        owner and one conquered fewer on fresh2, r3 one conquered fewer; 0.6: dev owner
        and conquered -1.) 0: off.
    cut_ruling_contrast : float
        Printed ruling at a slant through a cluster's window (:func:`_ruling_darkness`
        with this contrast; the rows and columns of ``grid_span`` miss a line a pixel
        off them along the window), taken out of every crop cut for reading, as
        ``ruling_contrast`` does for the numbers read as crossed out. A line through a
        number reads as an extra "1" or "4" (7 -> 17, 8 -> 18): on the dev photos the
        largest class of numbers read with a digit too many. Its darkness is measured
        off the box grown by the strokes' blur, and it must be at least that dark along
        ``cut_ruling_share`` of each side (0.5, a median, also took lines of other
        writing near a "1" on plain paper); the crop keeps its pixels when they are
        more than ``cut_ruling_most`` of the crop's (a "1" drawn on the ruling, a bar:
        a sudoku's page header read as 1 and 7). 1 or more: off. (Cached segmentations
        of the 150 dev photos, after ``underline_ruled``: armies 2059 -> 2072, owner
        2256 -> 2252, conquered 3316 -> 3320, letters 692 -> 700; sudoku digits 851 ->
        852, blanks 944.)
    cut_ruling_share, cut_ruling_most : float
        See ``cut_ruling_contrast``.
    crossed_underlined : bool
        A number read as both crossed out and underlined whose crop holds an underline
        stroke apart from the digits (see ``underline_apart_height``) is read again
        without that stroke, and is not crossed out when that view reads as not
        crossed out: an underline under the digits (most of all under a 7 with a bar)
        reads as a strike. (150 dev photos: 50 of the 65 numbers read as crossed out
        that were not are underlined, 5% of the underlined numbers against 2% of the
        others; with ``second_crossed_splits``, after ``cut_ruling_contrast`` and the
        regions' longer ``protrusion_root_extent``: conquered right 3320 -> 3327 of
        3505, 11 fewer invented cross-outs, 2 more missed.)
    second_crossed : float
        A number reading (a whole cluster) read as crossed out with more than this
        probability is also read by the second network (``models/marks_second.onnx``:
        the same layers, fine-tuned on clusters cut from synthetic photos, whose text
        reading loses real sudoku digits but whose underline and cross-out outputs are
        surer), and its cross-out probability is the two networks' weighted by
        ``second_crossed_weight``. (Same segmentations of tuning photos 500-523 and dev
        photos 600-639, with the mean: conquered precision 73.0 -> 81.8% and 70.6 ->
        78.6%, recall 70.8 -> 69.2% and 71.8 -> 71.0%.) 1 or more: off.
    second_seven : float
        A whole number cluster of writing height (``number_min_height``) read as "2"
        (before the border bars are read again, see ``border_bar_reach``) is "7" when
        the second network (see ``second_crossed``) reads its crop with more than this
        many times as much posterior on "7" as on "2": a 7 whose underline touches its
        foot is a Z, that the first network reads as 2 (often sure) and the second,
        fine-tuned on clusters cut from synthetic photos, as 7. Of the dev clusters
        whose reading ended "2" (tune s3 r3 dev2 dev3 dev3v3), the second network read
        18 as 7 that were 7 and 1 that was 2; with "Z" counted as "7" 21 and 1, but a
        real sudoku 2 went 7. (Marks stage on the cached segmentations, base 29744db:
        armies dev2 433 -> 434, dev3 4313 -> 4320, dev3v3 4366 -> 4373, tune s3 r3
        unchanged, no dev photo worse; validation fresh 1779 -> 1781, fresh2 2399 -> 2400;
        real sudoku unchanged, 854/947/45.) 0.45 (was 1; fifty-eighth session, marks
        stage on the cached segmentations of 2ec783f with 77c9858): armies s3 +1, r3 +1,
        dev2 +1, dev3 +4, fresh +1, conquered fresh2 +1; one page loses a number (dev3
        061262); 0.6 gains +5 with no page worse, 0.3 +6 with four pages worse; real
        sudoku unchanged. Infinite: off.
    second_crossed_weight : float
        The second network's share of the cross-out probability of a number it reads
        again (see ``second_crossed``; the first's is the rest). 1: the second
        network's word replaces the first's (cached segmentations of the 150 dev
        photos, seeds 100-139, 300-329, 500-539, 600-639, against the mean, 0.5:
        conquered right 3098 -> 3114 of 3332, more on every set; invented cross-outs
        95 -> 77, missed 89 -> 93; precision 75.6 -> 79.0%, recall 72.3 -> 71.4%).
    crossed_views : tuple of float
        A whole number whose cross-out probability lies in this range after the re-reads
        above (and that no cleaned view, ``ruling_contrast`` or ``crossed_underlined``,
        decided) is read again by the second network in more views: turned by
        ``crossed_angles``, sheared by ``view_shears`` and stretched across by
        ``crossed_stretches``; the mean of the views' cross-out probabilities counts
        ``crossed_views_weight`` of the probability. A stroke that one view takes for a
        part of a digit (a slash along a 7's stem, a strike along a 4's bar) the others
        see across it. (0.5, 0.5): off. (Marks stage on the cached segmentations of the
        150 dev photos, HEAD 4a96d38: conquered right 3378 -> 3385 of 3541, tune 896 ->
        899, s3 854 -> 855, r3 983 -> 985, dev2 645 -> 646; with ``soft_cross_threshold``
        0.7 instead of 0.8: 3389, 901 / 855 / 986 / 647, precision 87.0% -> 87.0%,
        recall 78.3% -> 81.0%; both with 6 views, turned by +-12 degrees too. About
        1.7 numbers per page asked.)
    crossed_views_weight : float
        See ``crossed_views``.
    crossed_angles, crossed_stretches : tuple of float
        See ``crossed_views``: the degrees those views are turned by (none by default:
        also turned by +-12 degrees, 6 views, conquered right 3389 against 3388 with
        the 4 others, for half as many crops), and their horizontal scales.
    conquer_doubt : float
        A number read as crossed out with a probability below this whose country holds
        at least as many armies as its neighbours of the other player together (no
        order of conquests could have conquered it) is not crossed out (see
        :func:`unconquerable_crosses`). 0: off. (Cached segmentations of the 150 dev
        photos, after ``crossed_views``: conquered right 3389 -> 3395 of 3541, tune
        +0, s3 +3, r3 +2, dev2 +1; a bar of 1.0 loses 25 true cross-outs, the
        neighbours' armies and owners being misread.)
    conquer_doubt_alone : float
        ``conquer_doubt`` for a country none of whose neighbours is read as the other
        player's (no enemy at all, rather than too few armies): its cross-out must be
        surer than this. Read so, a cross-out is seldom true: HEAD 283cbd2's dev and
        validation photos (cached segmentations, after ``crossed_net_word``) hold 23
        with a probability of 0.7-0.95 there, 7 of them true (dev 0 of 6: most of the
        false ones on pages still in the second phase), against 21 of 31 where an
        enemy too weak is read. (Marks stage, conquered right: dev 3465 -> 3471, tune
        +2, s3 +1, r3 +2, dev2 +1; validation 6407 -> 6410, fresh +2, fresh2 +1;
        armies, owner, matched unchanged. 0.9: dev +6, validation +2; 0.85: -1 on
        validation.)
    placing_total, placing_crosses, placing_doubt : float, int, float
        A page whose numbers add up to less than ``placing_total`` of the armies the
        two players place (2 x 100) is likely still in the second phase (a player has
        armies left), where nothing is crossed out: when it holds at most
        ``placing_crosses`` numbers read as crossed out, each read so with less than
        ``placing_doubt``, they are not crossed out (:func:`placing_crosses`; a page in
        the last phase whose numbers are misread short keeps its sure cross-outs, and
        one with more cross-outs is taken as in that phase). (xo52, session 32, marks
        stage on HEAD 283cbd2's cached segmentations, with ``conquer_doubt_alone``:
        conquered right dev 3471 -> 3476 (tune +0, s3 +2, r3 +1, dev2 +2), validation
        6410 -> 6416 (fresh +1, fresh2 +5); armies, owner, matched unchanged; 13
        cross-outs taken off, 12 of them false (10 on pages in the second phase), 1
        true. A total of 0.95: fresh -1; three cross-outs: s3 -1 (a page in the last
        phase read as 132 armies with three true ones of 0.39-0.8; run before
        :func:`balanced_turns`, that page's two were taken off and its third never
        added: s3 -1 too).) 0 total: off. ``placing_doubt`` 0.9 -> 0.98 (sixty-first
        session, marks stage on the cached segmentations of 05570fc): conquered right
        tune +2, s3 +1, dev3 +1, fresh2 +1, exact maps s3 +1, nothing else changed
        (0.95: +3; 1.01, every such cross-out taken off: dev3 -23, fresh -4, fresh2 -4).
    turn_balance_least, turn_balance_soft : float
        The players conquer in turn, the first player first: on a page in the last
        phase the first player's crossed-out numbers (underlined) number the second's or
        one fewer unless a player passed. Where the reading breaks this, the number of
        the short side with the highest cross-out probability, at least
        ``turn_balance_least``, whose crop is no more than ``turn_balance_soft``
        mid-tones (see ``soft_fraction``: a blurred number reads crossed out readily)
        and whose country its neighbours of the other player could have conquered, is
        taken as crossed out (one per page, :func:`balanced_turns`). 1 or more: off.
        (Synthetic truth, 296 dev and big photos in the last phase: 240 balanced so.
        Marks stage on the cached segmentations of 5672a29: conquered right dev 3453 ->
        3462 (tune +0, s3 +4, r3 +4, dev2 +1; 12 countries right, 3 wrong), validation
        6378 -> 6395, big 6900 -> 6905; least 0.25 or 0.35, soft 0.45, or more than one
        per page: dev -2, -2, 0, 0.)
    crossed_net_weight, crossed_net_shift, crossed_net_band : float, float, tuple
        The number readings whose cross-out probability p (after ``crossed_views``) lies
        in ``crossed_net_band`` take the crossed-out reader's word on their crop
        (``models/marks_crossed.onnx``, its cross-out output c, read on the crop alone):
        p becomes sigmoid(``crossed_net_own`` * logit p + ``crossed_net_weight`` * logit
        c + ``crossed_net_second`` * logit s + ``crossed_net_shift``), s the second
        network's cross-out output on the same crop (:func:`crossed_net_word`; the
        values quoted below, up to "Sudoku photos", are those of the first version,
        own 1, weight 0.4, second 0: see ``crossed_net_own``). That reader was trained on
        85% crossed-out crops: it says crossed out readily (logit c about 2.5, c = 0.92,
        is its neutral word with these values), but it ranks the cross-outs best of the
        four networks (dev number crops, area under the ROC: 0.977 against 0.963 for the
        first network's head and 0.967 for the probability after ``crossed_views``). It
        finds strokes the first network misses (s3 614 O, 636 F, r3 102 G: 0.36, 0.13,
        0.04 -> c 0.97, 0.91, 0.79) and doubts strokes it invents. Outside the band a
        decision could change only on the reader's most extreme words (a shift of
        ``crossed_net_weight`` * 9.2 + ``crossed_net_shift`` at c = 1 - 1e-4): those
        crops are not read (time: about 36% of the number readings, one batch, ~3 ms per
        20 countries). 0 weight: off. (Marks stage on the cached segmentations, base
        f0368d7: conquered right dev 3418 -> 3430 of 3572 (tune +3, s3 +4, r3 +2, dev2
        +3), big 6828 -> 6837, fresh+fresh2 6364 -> 6368 (-1, +5); armies dev unchanged,
        big 4168 -> 4166: :func:`hundred_armies` runs on a page with a cross-out only,
        and two pages lost theirs, one of them a false one; the weights were chosen on
        the dev number crops; 0.3 / -0.75 and 0.5 / -1.25 gave dev +10 / +11, big +12 /
        +6. Sudoku photos: no digit read crossed out, unchanged.)
    crossed_net_own, crossed_net_second : float
        See ``crossed_net_weight``: the shares of the reading's own log-odds and of the
        second network's (``models/marks_second.onnx``) word on the crop. p already holds
        the second network's word (``second_opinion`` puts it in place of the first's,
        ``crossed_views`` reads its views with it): a small negative share takes back
        part of that word where the crossed-out reader disagrees, and own < 1 leaves the
        crossed-out reader more say. (1, 0: the first version. Marks stage on the cached
        segmentations, base bc80fb2, weights chosen by a simulation on c45's dev number
        crops, then benched: conquered right dev 3430 -> 3439 of 3572 (tune +0, s3 +3,
        r3 +4, dev2 +2), fresh+fresh2 6368 -> 6371 (+4, -1), big 6839 -> 6843; armies,
        owner, matched unchanged everywhere. Others benched on dev: own/weight/second/
        shift 0.7/0.5/-0.25/-1 +8 (tune +0, dev2 +0), 0.6/0.45/-0.2/-0.875 +8, 1/0.45/
        -0.15/-1 +6, 0.6/0.5/-0.2/-1 +7 (tune -1). The second network runs on the same
        crops, one batch.) 0 second: not run.
    second_crossed_splits : bool
        The number readings of trial-split parts (a number beside a letter, see
        :func:`resolve_splits`) are read by the second network as whole clusters are
        (``second_crossed``): without it, 9% of the numbers read from a split part were
        read as crossed out that were not, against 3% of whole ones (150 dev photos).
    second_underline : tuple of float
        A number reading (a whole cluster) whose underline probability lies strictly
        between these two takes the second network's underline probability (dev
        photos: owner 82.5 -> 84.5%, tuning 85.2% unchanged). Both networks run on the
        crops asked by either rule in one batch; (0.5, 0.5): off.
    second_underline_nets : tuple of str
        The other networks ("crossed", "pairs", see :func:`digits.load_named_net`) that
        read those doubtful underlines' crops too: the underline probability is that of
        the mean log-odds of the second network's and theirs. Alone, each network
        misses underlines the others see (one touching the digits, a short dash) and
        sees some that are not there (a 2's base, a strike under the digits); their
        mean decides the doubtful band better than any one of them (with the guards
        below, marks stage on the cached segmentations: owner dev 2393 -> 2398,
        validation 4461 -> 4462, big 4541 -> 4550). Empty: the second network's word
        alone. (u45, session 28, without ``second_underline_seen``:
        owner dev +7, big +25, validation +2, but armies dev -1, validation -1: every
        armies change was hundred_armies' on a page whose owners changed; real sudoku
        digits read as underlined 50 -> 55. "pairs" alone: dev +9, big +8, validation
        -7; "crossed" alone: dev +4, big +18.)
    second_underline_seen : bool
        The mean of ``second_underline_nets`` reads as underlined only a number that the
        first network (its reading's own probability) or the second reads underlined
        (over ``mark_threshold``); where both read none, the second network's word
        stands. The helper networks' yes where the two number readers see nothing is
        mostly a digit's own stroke: on the real sudoku photos 11 printed digits in the
        band, six of them 2s (the base), read as underlined by the mean alone (sudoku
        "underlined" 50 -> 55 without this, 49 with it); their no still settles a doubt
        or takes back a yes of both.
    second_underline_veto : float
        The mean takes back the second network's underline (over ``mark_threshold``)
        only when it lies below this, not merely below ``mark_threshold``: of the
        numbers of dev and big with a mean of 0.44-0.5 under the second's yes and both
        helpers' no, 6 of 12 were underlined (dev 4 of 5; dev2 313 S, R: second 0.54,
        0.71, the helpers 0.47, 0.47 and 0.41, 0.27).
    second_underline_veto_all : bool
        ... and only when each helper network says no: one that sees the underline
        keeps it (the pair network's sure no, 0.06, on a misread 17 underlined, first
        0.35, second 0.64, crossed-out reader 0.70, read it not underlined in one of
        two shots of the same map, tests/test_follow_photos.py::test_no_move).
    crossed_text : float
        A whole cluster read as a number crossed out with more than this probability
        (after ``second_crossed``) is read again in its own and its other views (turned
        by ``view_angles``, sheared by ``view_shears``) by the crossed-out reader
        (``models/marks_crossed.onnx``, see ``crossed_text_net``) and the first
        network, and takes the likeliest text of the mean of their posteriors when that
        is a number (:func:`crossed_text`). Real sudoku digits are not read crossed out,
        so they are not asked. Marks stage on the cached segmentations of the 150 dev
        photos: see the card ``models/marks_crossed.md``. 1 or more: off. (0.25 since
        the sixtieth session: marks stage on the cached segmentations of the 750 dev and
        validation pages, armies +4 (dev2, fresh +1, dev3 +2), fresh2 owner -1; 0.2:
        armies +1, tune -3.)
    crossed_text_below : float
        See ``crossed_text``: only readings whose posterior is below this are asked.
        (0.95 since the sixtieth session, 0.9 before: armies +4 (s3, fresh2 +1, dev3
        +2), nothing lost, same measure.)
    crossed_text_nothing : float
        See ``crossed_text``: a reading of nothing is asked only when read as crossed
        out with more than this probability (a real sudoku photo's blank cell, a stray
        mark read as nothing, cross-out 0.44, became a 2 at 0.3).
    crossed_text_net : {"second", "crossed"}
        Which network's word ``crossed_text`` takes: the second network
        (``models/marks_second.onnx``) or the crossed-out reader
        (``models/marks_crossed.onnx``).
    crossed_text_mix : {"better", "mean"}
        How: "better", its likeliest number when surer than the first network's
        likeliest text (means over the views); "mean", the likeliest text of the mean
        of both networks' posteriors over the views, when that is a number.
    crossed_text_weight : float
        See ``crossed_text_mix``: the crossed-out reader's share of "mean" (the first
        network's is the rest; 0.5: the plain mean).
    crossed_text_shears : bool
        See ``crossed_text``: the views are the crop and the crop turned by each of
        ``view_angles``, and sheared by each of ``view_shears`` with this.
    crossed_text_first_views : bool
        See ``crossed_text``: the first network reads the other views too; without
        it, only its reading of the crop itself is taken.
    crossed_text_hundred : bool
        See ``crossed_text``: the mean posterior that decides an asked number's text
        ("mean" only) is also the posterior :func:`hundred_armies` and
        :func:`hundred_owners` take for it (else the first network's on its crop, which
        a cross-out blurs most). (Marks stage on 7222539's cached segmentations:
        crossed-out armies right 367 -> 369 of 490 on the 150 dev photos, tune 76 -> 77,
        s3 116 -> 118, r3 113 -> 111, dev2 62 -> 63; 652 -> 659 of 950 on the 300
        validation photos; owner and conquered unchanged.)
    pairs_aspect : float
        A whole cluster of writing height whose ink is at least this many times as wide
        as high, read as one digit with a posterior below ``pairs_below`` or as two
        digits with a posterior below ``pairs_two_below``, is read again by the pair
        network (``models/marks_pairs.onnx``: the same layers, fine-tuned on two-digit
        numbers whose digits overlap or touch). A one-digit reading becomes the
        likeliest two-digit number holding that digit there, a two-digit one that
        network's likeliest number, when its posterior is at least
        ``pairs_confidence`` (two digits written over each other often read as one of
        them). Lone digits are narrower (real sudoku digits: 99% below 0.95). Above
        10: off.
    pairs_below, pairs_two_below, pairs_confidence : float
        See ``pairs_aspect``. ``pairs_two_below`` is 0 (two-digit readings not asked):
        at 0.7 it read a right "17" of a test photo sequence as "13"
        (tests/test_follow_photos.py::test_legal_placement) and gained one number on
        the 150 cached dev segmentations (armies 2130 -> 2131: tune +1, s3 +1, dev2 -1).
    pairs_narrow_confidence : float
        A narrower cluster (ink less than ``pairs_aspect`` times as wide as high) read
        as one digit with a posterior below ``pairs_below`` is read again by the pair
        network too, and becomes its two-digit number only with at least this
        posterior: a "1" written close to the next digit ("15" read 5), narrow ones
        ("11" read 1). Above 1: off. (Marks stage on the cached segmentations of the
        150 dev photos, HEAD 0726e75: armies 2191 -> 2195 of 2543, r3 +2, dev2 +2, tune
        and s3 unchanged; validation photos 20000-20299: 3986 -> 3993 of 4842, none
        lost; real sudoku digits unchanged, 855 of 864. 0.9: dev +2, validation +7.
        0.7, as wide ones, by the pair network's reading of the truth numbers' crops:
        dev +6 -1, validation +11 -7.)
    touch_shift : float
        An underline drawn touching its number is inside the number's cluster, where the
        network (trained mostly on underlines apart from the digits) often misses it: a
        whole number reading not underlined, whose underline probability is above
        ``touch_least`` (some doubt) and whose text holds none of ``touch_skip`` (a 2's
        base is such a stroke, and a 3's flat bottom often), whose lowest long stroke
        (see :func:`_touching_stroke`) is moved down by this many writing heights and
        read again, is underlined when that view reads the same text and is underlined
        (``mark_threshold``). 0: off.
        (Cached segmentations of the 150 dev photos, thirteenth session: owner 2246 ->
        2251, 6 countries right, 1 wrong: a 6 read as underlined. Fifty-fourth session,
        the 750 dev and validation pages: of the numbers it underlined 19 were underlined
        and 22 not, 11 of those 22 a 3 and 1 of the 19: "3" joined ``touch_skip``.)
    touch_least, touch_skip : float, str
        See ``touch_shift``.
    letter_touch_prob : float
        On a page that names no countries (not ``labelled_fraction`` lettered) a whole
        cluster of writing height read as a single letter may be a number over an
        underline touching it (a 7 with its underline reads Z, a 1 reads L): its lowest
        long stroke (see :func:`_touching_stroke`, reaching at least
        ``letter_touch_overhang`` writing heights past the writing above it) is moved
        down as for ``touch_shift`` and the view read again; read as a number (none of
        ``touch_skip``) with at least this posterior, underlined (``mark_threshold``),
        it takes the letter's place (see :func:`_underlined_letters`; above 1: never).
        (m39, session 24, marks stage on the cached segmentations: the 150 dev photos
        unchanged; validation fresh + fresh2 armies 4060 -> 4061, owner 4411 -> 4414;
        big armies 4023 -> 4027, owner 4432 -> 4436; no country lost; sudoku unchanged.)
    letter_touch_overhang : float
        See ``letter_touch_prob`` (a 7's underline is hardly wider than its top bar).
    faint_reread : float
        A whole number reading of a cluster that took light ink from beside it
        (``Cluster.faint``) with an underline probability in ``touch_least`` to
        ``mark_threshold`` is read again from its crop (cleaned of printed ruling when it
        holds any) keeping only the ink pieces with a pixel at least this dark (of the
        writing's darkness): the light writing beside it left out; underlined when that
        view reads the same text and is underlined (see :func:`_faint_underlines`). 0:
        off. (l33's, nineteenth session; twentieth session, with ``underline_faint``,
        marks stage on the cached segmentations: owner 2369 -> 2370 of 2543 (tune +1);
        validation fresh + fresh2 4399 -> 4404, 6 of them on one photo.)
    touch_slant : float
        The stroke is looked for at slants (column shift per row) up to this, in steps of
        ``touch_slant_step``.
    touch_slant_step : float
        See ``touch_slant``.
    touch_lower : float
        ... in the lowest this fraction of the writing's height ...
    touch_length : float
        ... as the longest row run (gaps up to a line width closed) at least this many
        writing heights long ...
    touch_cover : float
        ... at least this fraction of the width of the writing above it ...
    touch_overhang : float
        ... reaching at least this many writing heights past that writing on one side
        (the digits' own flat strokes end with them) ...
    touch_bottom : float
        ... within this many writing heights of the writing's bottom ...
    touch_narrow : float
        ... and at most ``underline_max_width`` times as long as the writing above it, or
        as this many writing heights when that is narrower (a 1) ...
    touch_below : float
        ... with at most this fraction of its own ink below it (a digit's bar, as a
        printed 4's, has the digit's stem going on below it).
    touch_ink : float
        The stroke is looked for among the crop's pixels darker than this (the crop's
        darkness is 0..1 of the writing's); the faint rims around it move with it.
    pen_owner_separation : float
        Where the two players write with different pens, the ink's colour tells whose a
        number is (:func:`_pen_owners`): the page's numbers split in two by the colour
        of their ink (log transmittance in blue, green, red: the median of the crop's
        pixels at least ``pen_ink`` dark over that of its paper, ``pen_paper`` or less),
        two inks at least this far apart (Mahalanobis, each ink's spread at least
        ``pen_owner_spread``), each holding at least ``pen_owner_least`` numbers, with at
        least ``pen_owner_agree`` of the numbers read as underlined in one ink and as not
        in the other; then the colour's log-odds (a linear discriminant between the two
        inks, at most ``pen_owner_cap``) are added to the underline's (its probability's
        over the threshold). An underline missed where it runs along a border, or a
        printed line or a digit's stroke taken for one, is outvoted by the pen. 0: off.
        (Sixteenth session, cached segmentations of the 150 dev photos: owner 2291 ->
        2333 of 2520, 43 countries right, 1 wrong; underlines missed 56 -> 32, false 37
        -> 26. Real sudoku photos: unchanged.)
    pen_owner_least, pen_owner_agree, pen_owner_spread, pen_owner_cap : float
        See ``pen_owner_separation``.
    pen_owner_far, pen_owner_far_agree : float
        Two inks at least ``pen_owner_far`` apart are two pens beyond doubt: the share of
        the numbers whose ink and underline must agree is ``pen_owner_far_agree`` (when
        lower than ``pen_owner_agree``): a page with many underlines misread still has
        its owners told by the pens. (Two inks of one pen, split by its lighter and
        darker numbers, lie closer.) (Session 25, cached segmentations: the big set's
        300 photos, owner 4436 -> 4452, 4 pages changed, 17 countries right, 0 wrong;
        the 150 dev photos unchanged.)
    pen_ink, pen_paper : float
        See ``pen_owner_separation``.
    pen_shade_floor : float
        When the inks' colours do not split the numbers, the split is tried again on
        their darkness and hue (:func:`_ink_shades`; log transmittance, the darkness
        at least this much), with the same safeguards (0: off).
    map_margin : float
        The writing is looked for in the map's bounding box (the pixels some country
        claims) grown by this many line widths, not in the whole photo: writing no country
        claims is left out anyway (beyond ``label_reach``), and the cluster windows'
        paper estimate reaches far less than this beyond a country. On the synthetic
        photos the box is about half of the image: half the pixels to label, turn and
        scan.
    border_bar_reach : float
        A whole cluster read as one of ``border_bar_digits`` (not light writing) with
        border ink beside it is read again with that ink added back: the border pixels
        of its window within this many writing heights of its box across (and
        ``border_bar_rise`` up and down). A 7's or 4's bar drawn along a border (a
        printed grid line, a country's outline) is the region stage's border and leaves
        the stem, read as 1; a 2's base there leaves a 7. The view's reading (one other
        digit) is taken when its posterior is at least ``border_bar_prob`` and above the
        first, and the ink added is ``border_bar_least`` to ``border_bar_most`` of the
        crop's ink pixels (a bar is a good part of a digit; a border along a 1 is more
        ink than the 1). The view's likelihoods replace the crop's for
        :func:`hundred_armies`. 0: off. (150 dev photos at 4f1f456: of the 19 plain
        numbers read as 1 that are another digit, 8 lack part of the digit in the crop,
        5 of them to the borders. Cached segmentations: dev armies 2232 -> 2236, tune
        s3 dev2 +1 +2 +1, crossed 379 -> 380; validation armies 4112 -> 4113; big 4188
        -> 4189; sudoku unchanged.)
    border_bar_digits : str
    border_bar_rise, border_bar_least, border_bar_most, border_bar_prob : float
        See ``border_bar_reach``.
    border_underline : float
        A whole number not read as underlined with a piece of border ink of its own under
        it is underlined (this probability; 1 or more: off): the region stage takes an
        underline drawn apart from the digits for border (a flat stroke of the outline's
        width), so neither the crop nor the networks see it. The piece is one connected
        component of the border mask that lies wholly within ``border_underline_reach``
        writing heights of the number's box across, its top at most
        ``border_underline_rise`` writing heights above the box's bottom (below the
        number's middle) and its bottom at most ``border_underline_drop`` below it, at
        least ``border_underline_width`` of the number's width wide and at most
        ``border_underline_height`` writing heights tall: a country's outline is one
        long network, never within a number's reach. (w48, session 30: of the 36
        first-player numbers read right and underlined not on the four dev sets, most
        are read with every network sure of no underline; the crops lack the underline,
        which the region stage put in the borders.)
    border_underline_reach, border_underline_rise, border_underline_drop : float
    border_underline_width, border_underline_height : float
        See ``border_underline``.
    """

    min_component_area: float = 1.5
    min_component_height: float = 1.5
    speck_reach: float = 1.5
    speck_least: float = 0.3
    speck_border: float = 2.0
    group_gap_x: float = 0.45
    group_gap_y: float = 0.35
    stack_height: float = 0.45
    mark_threshold: float = 0.5
    soft_fraction: float = 0.45
    soft_cross_threshold: float = 0.7
    soft_levels: tuple[float, float] = (0.15, 0.7)
    ink_dilate: float = 0.5
    background_kernel: float = 0.6
    pair_vocabulary: bool = True
    orientation_clusters: int = 16
    orientation_rounds: tuple[int, ...] = (3, 3, 4, 6)
    orientation_spread: int = 2
    orientation_drop: tuple[float, ...] = (1.25, 0.5)
    orientation_more_clusters: int = 16
    orientation_far: float = 45.0  # degrees from the best orientation: another reading
    orientation_refine_clusters: int = 16
    orientation_floor: float = -2.0
    orientation_step: float = 30.0
    orientation_refine: tuple[float, ...] = (10.0,)
    orientation_prior: float = 0.05
    orientation_letter_penalty: float = 1.0
    orientation_label_letters: int = 4  # voters read as distinct letters: no letter penalty there
    orientation_label_share: float = 0.3  # ... and at least this share of the voters
    orientation_bar_elongation: float = 4.0  # length/width of a bar: not the writing height
    orientation_flip_votes: int = 3  # more voters for the half turn than against: it wins
    orientation_flip_nats: float = 0.1  # nats a voter's reading must differ by to vote
    orientation_keep_half: bool = True  # the race's leader's half turn races to the end
    orientation_flip_mean: bool = True  # unrectified: the half turn needs a positive mean gain
    orientation_quarter_votes: int = 4  # more shaped voters for a quarter turn than against
    orientation_quarter_elongation: float = 3.5  # length/width of a voter left out of that check
    orientation_quarter_doubt: float = -0.6  # nats: their mean reading under which it is made
    orientation_refine_elongation: float = 3.5  # length/width of a voter left out of refinements
    orientation_border_reach: float = 1.0  # line widths from the borders: a voter's ink on them
    orientation_border_share: float = 0.7  # share of a voter's ink on the borders: not a voter
    orientation_min_voters: int = 8  # voters off the borders needed to leave those on them out
    orientation_ruling_lines: int = 10  # ruling lines that agree: the writing runs along them
    orientation_ruling_size: int = 600  # pixels (longer side) the ruling is looked for at
    orientation_ruling_share: float = 0.03  # the paper's darkest thin lines taken for ruling
    orientation_ruling_contrast: float = 6.0  # grey levels: the least a ruling line stands out
    orientation_ruling_length: float = 0.15  # Hough votes: this share of the shorter side
    orientation_ruling_longest: int = 40  # the strongest lines that vote on the direction
    orientation_ruling_agree: float = 2.0  # degrees (modulo 90) lines agree within
    orientation_ruling_far: float = 20.0  # degrees from the ruling's turns: choose among those
    margin_redness: float = 12.0  # grey levels a margin's red stands above its surroundings'
    margin_votes: float = 0.5  # Hough votes for a margin line: this share of the shorter side
    margin_cover: float = 0.5  # the least share of its length across the page the line covers
    margin_border_share: float = 0.4  # the most of its red pixels on the borders (a red map)
    margin_paper_grey: float = 25.0  # grey levels the two sides of a margin may differ by
    margin_window: int = 41  # working pixels: the window a margin's red is compared with
    margin_lines: int = 10  # the strongest Hough lines looked at
    margin_edge: float = 0.03  # share of the shorter side along the image's edge: no margin
    margin_sides: tuple[float, float] = (4.0, 14.0)  # working pixels: each side's band
    margin_side_red: float = 0.15  # the most of a side's band that may be red
    orientation_margin_far: float = 45.0  # degrees from the margin's turn: it is asked
    orientation_margin_nats: float = 0.5  # nats per voter the margin's turn may read worse
    orientation_margin_votes: int = 2  # voters more against the margin's turn than for it
    touch_reach: float = 0.45
    label_reach: float = 1.3
    labelled_page_fraction: float = 0.25
    split_max: int = 2
    row_split_height: float = 1.4
    row_split_overlap: float = 0.25
    row_split_small: float = 0.3
    split_min_prob: float = 0.5
    split_not_letters: str = "IO"
    split_keep_number: float = 0.9
    split_letter_mass: float = 0.1
    split_number_mass: float = 0.5
    fragment_whole_below: float = 0.5
    fragment_number_prob: float = 0.95
    fragment_height: float = 0.6
    fragment_nothing_prob: float = 0.9
    fragment_nothing_whole_below: float = 0.6
    split_never_letters: str = "O"
    letter_beside_prob: float = 0.9
    letter_beside_number: float = 0.1
    light_low: float = 0.08
    light_relative: float = 0.2
    light_seed: float = 0.15
    light_close: float = 0.5
    light_min_height: float = 0.5
    light_max_height: float = 2.0
    light_max_width: float = 2.0
    light_not_ones: bool = True
    light_one_prob: float = 0.8  # least posterior of a light "1" that counts (light_one_share)
    light_one_share: float = 0.25  # least share of a page's light clusters counted as numbers
    light_bar_span: float = 0.8
    light_max: float = 0.5
    light_min_prob: float = 0.5
    light_letter_mass: float = 0.9
    unique_light_mass: float = 0.6
    unique_part_mass: float = 0.9
    light_labelled: bool = True
    light_beside_any: bool = False
    light_labelled_again: bool = True
    light_line: float = 1.5
    light_gap: float = 1.0
    fainter_low: float = 0.04  # fine faint pen's level in clean empty countries (0: off)
    fainter_paper: float = 0.02  # most grain (75th percentile darkness) of their paper
    fainter_min_prob: float = 0.7  # least posterior of a number found at fainter_low
    number_min_height: float = 0.6
    sure_short_number: float = 0.95
    labelled_fraction: float = 0.3
    number_from_letter: float = 0.3
    plain_fraction: float = 0.05
    number_from_letter_plain: float = 0.0
    shaped_fraction: float = 0.1
    number_from_letter_shaped: float = 0.0
    letter_pair_number: float = 0.05
    pair_one_letter: float = 0.1  # a lone 1 read I at this letter mass: the letter of two
    short_letter_mass: float = 0.04  # a short number's letter mass: the country's letter
    lone_number_letter: float = 0.35
    missing_letter_mass: float = 0.01
    plain_letter_number: float = 0.05
    underline_gap: float = 0.8
    underline_max_width: float = 2.0
    underline_min_width: float = 0.4
    underline_border_pieces: bool = True
    underline_stroke: float = 1.0
    underline_cluster_height: float = 0.75
    underline_cluster_width: float = 2.5
    underline_cluster_scaled: bool = True  # ... relative to a taller number's height
    underline_bar_ratio: float = 1.8  # width over height of a detached underline cluster
    underline_bar_height: float = 0.12  # its least height, in writing heights
    underline_on_border: float = 0.2  # underline threshold of a number resting on a border
    underline_faint: float = 0.4  # that of a number whose cluster took light ink beside it
    underline_border_reach: float = 0.4  # writing heights below the box: resting on it
    underline_border_cover: float = 0.6  # share of its width the border runs under
    underline_border_inside: float = 0.25  # writing heights inside the box looked at too
    underline_border_side: float = 1.0  # writing heights beside the box: closed round it
    underline_border_boxed: float = 0.5  # share of each side closed: in a cell, not on a border
    underline_ruled: bool = True  # an underline read again without the printed ruling
    underline_ruled_below: float = 0.2  # ... taken back when that view reads below this
    underline_apart_height: float = 0.4  # writing heights: most height of that stroke
    underline_apart_ratio: float = 1.5  # its least width over its height
    underline_apart_width: float = 0.3  # least width over the writing above it (or 0.6 heights)
    bar_elongation: float = 3.0
    border_piece_elongation: float = 4.0
    border_piece_flat: float = 30.0
    border_piece_contact: float = 0.5
    border_piece_reach: float = 1.0
    border_piece_vote_reach: float = 0.45
    border_continue_length: float = 4.0
    border_continue_elongation: float = 2.0
    border_continue_thickness: float = 2.0
    border_continue_width: float = 1.0
    border_continue_cover: float = 0.75
    border_continue_angle: float = 12.0
    border_continue_thick_ratio: float = 0.85
    bar_vote: float = 0.5
    bar_vote_width: float = 15.0
    bar_read_underlined: bool = True
    underline_vote: float = 0.5
    faint_reach: float = 1.0
    faint_level: float = 0.4
    faint_min_height: float = 0.5
    faint_gap: float = 0.35
    faint_border: float = 2.0
    faint_stroke: float = 0.4
    faint_ruling: bool = True
    faint_underline_ruling: float = 1.15  # a ruled light underline: least darkness / the line's
    outline_margin: float = 1.0
    outline_piece: float = 1.0
    outline_keeps_underline: bool = True  # an underline close to a border stays
    outline_underline_inside: float = 0.5  # least share of its pixels inside the country
    residue_bar_length: float = 0.5
    residue_coverage: float = 0.85
    residue_max_size: float = 5.0
    view_threshold: float = 0.7
    view_angles: tuple[float, ...] = (12.0, -12.0)
    view_nets: tuple[str, ...] = ("crossed", "second")
    view_light: bool = False  # light clusters read again turned too
    view_shears: tuple[float, ...] = (0.2, -0.2)
    view_shear_crossed: float = 0.5
    ones_stretch: float = 1.5
    ones_stretch_below: float = 0.7
    ones_double_least: float = 0.1
    ones_double_below: float = 0.9
    ones_double_letter: float = 0.5
    nothing_number_mass: float = 0.5
    nothing_number_pieces: int = 2
    stroke_one_height: float = 0.7
    stroke_one_width: float = 0.4
    stroke_one_mass: float = 0.03
    stroke_one_elongation: float = 2.5
    stroke_one_slant: float = 25.0
    stray_height: float = 0.3
    stray_flat: float = 4.0
    line_one_reach: float = 1.0
    line_one_dark: float = 0.5
    line_one_cover: float = 0.6
    ones_pair_height: float = 0.6
    ones_pair_named: float = 0.9
    ones_pair_slant: float = 50.0
    ones_pair_parallel: float = 15.0
    ones_pair_level: float = 0.5
    ones_pair_open: float = 0.2
    ones_pair_joined_mass: float = 0.05
    ones_pair_alike: float = 0.7
    ones_pair_pieces: int = 4
    grid_low: float = 0.15
    grid_span: float = 0.9
    grid_margin: float = 0.3
    grid_keep: float = 0.5
    grid_find: float = 1.0
    ruling_contrast: float = 0.15  # a printed line's darkness over the paper's, of the writing's
    cut_ruling_contrast: float = 0.15  # ruling_contrast for every crop cut for reading
    cut_ruling_share: float = 0.7  # least share of each side the line is that dark along
    cut_ruling_most: float = 0.3  # most share of a crop's pixels taken off as ruling
    ruling_keep: float = 1.5  # a pixel on a line up to this many times its darkness: the line
    ruling_angle: float = 40.0  # degrees either side of the window's rows (columns) tried
    ruling_step: float = 2.0  # degrees between the slants tried
    ruling_sheared: bool = True  # crossed numbers also cleaned at each family's own slant
    ruled_text_least: float = 0.4  # least posterior of the cleaned crop's text taken
    crossed_underlined: bool = True  # a crossed underlined number: cross-out read without it
    second_crossed: float = 0.5
    second_seven: float = 0.45  # a "2" the second network reads as "7" is 7
    second_crossed_weight: float = 1.0
    crossed_views: tuple[float, float] = (0.3, 0.9)
    crossed_views_weight: float = 0.5
    crossed_angles: tuple[float, ...] = ()
    conquer_doubt: float = 0.7
    conquer_doubt_alone: float = 0.95  # ... with no neighbour of the other player at all
    placing_total: float = 0.85  # share of the 200 armies under which a page may be in phase 2
    placing_crosses: int = 2  # ... whose cross-outs, this many at most ...
    placing_doubt: float = 0.98  # ... each read so with less than this, are taken off
    turn_balance_least: float = 0.3  # cross-out probability from which a turn is balanced
    turn_balance_soft: float = 0.4  # ... for a number crop at most this blurred
    crossed_net_weight: float = 0.45  # the crossed-out reader's cross-out log-odds' share (0: off)
    crossed_net_shift: float = -1.0  # ... added to the log-odds (that reader's bias to crossed)
    crossed_net_own: float = 0.7  # ... the reading's own log-odds' share
    crossed_net_second: float = -0.2  # ... the second network's on the crop (counted twice before)
    crossed_net_band: tuple[float, float] = (0.05, 0.995)  # ... asked from/up to this probability
    crossed_stretches: tuple[float, ...] = (1.2, 0.85)
    second_crossed_splits: bool = True  # trial-split parts too (a letter beside the number)
    second_underline: tuple[float, float] = (0.1, 0.9)
    second_underline_nets: tuple[str, ...] = ("crossed", "pairs")  # asked with the second
    second_underline_seen: bool = True  # the mean reads no underline neither network saw
    second_underline_veto: float = 0.44  # mean below which a yes of the second is taken back
    second_underline_veto_all: bool = True  # ... and only when every helper says no
    crossed_text: float = 0.25  # cross-out probability from which the text is read again
    crossed_text_below: float = 0.95  # ... of readings whose posterior is below this
    crossed_text_nothing: float = 0.5  # ... and of readings of nothing from this one
    crossed_text_net: str = "crossed"  # whose word: second / crossed
    crossed_text_mix: str = "mean"  # how it is taken: better / mean
    crossed_text_weight: float = 0.8  # ... its share of the mean (the first network's: the rest)
    crossed_text_shears: bool = False  # its views include the sheared ones (view_shears)
    crossed_text_first_views: bool = False  # the first network reads the other views too
    crossed_text_hundred: bool = True  # its posterior is the one hundred_armies takes
    pairs_aspect: float = 1.0
    pairs_below: float = 0.9
    pairs_two_below: float = 0.0
    pairs_confidence: float = 0.7
    pairs_narrow_confidence: float = 0.8
    hundred_least: float = 0.05  # see :func:`hundred_armies` (above 1: off)
    # hundred_armies' change also needs at least this share of the kept reading's
    # posterior (0: off). Its best changes over dev and big at 98fc5ab (hundred_least
    # 0.05): 34 right, 23 wrong; with 0.25: 30 right, 9 wrong (the wrong ones are
    # mostly sure readings, posterior 0.4-0.9, of a page whose totals are off elsewhere,
    # dev2 316's 7 -> 2 at 0.09 against 0.89); 0.2: 30, 12; 0.3: 28, 8.
    hundred_ratio: float = 0.25
    # see :func:`hundred_blanks` (above 1: off). (Marks stage on the cached segmentations
    # at 6fa24e2, dev: tune armies 541 -> 542, owner 592 -> 593, conquered 915 -> 916;
    # dev3 armies 4423 -> 4426, owner 4796 -> 4799; no other change. 0.02 also gives
    # dev3 061031 a number, a 1 read 9, its owner right; with no underline asked, 0.05
    # gives two empty countries a number, tune 521 among them.)
    hundred_blank: float = 0.05
    hundred_owner: float = 0.01  # see :func:`hundred_owners` (above 1: off)
    # The posteriors hundred_armies and hundred_owners take for a number read whole are
    # also those of its trial-split parts beside a part with at least this much of its
    # posterior on the letters (the country's letter grouped with its number: "8O" read
    # 80, "9O" read 90). (Above 1: off. Marks stage on the cached segmentations at
    # b16b7f8: dev3 armies 4427 -> 4429 (061044, 061066), validation fresh2 2436 ->
    # 2437, nothing else changed; with any part, not only beside a letter: a right 14
    # and 18 read 1 and 8 where the total was off elsewhere, dev3 061133, 061209.)
    hundred_letter_part: float = 0.5
    hundred_count_gap: int = 2  # see :func:`lone_hundred` (0: off)
    hundred_lone: tuple[int, ...] = (10, 60, 90)  # see :func:`lone_hundred`
    touch_shift: float = 0.3  # writing heights a touching stroke is moved down (0: off)
    faint_reread: float = 0.95  # core darkness of the pieces faint clusters are read from (0: off)
    touch_least: float = 0.02  # least underline probability of a number looked at
    touch_skip: str = "23"  # digits whose own stroke lies flat along the bottom
    letter_touch_prob: float = 0.5  # least posterior of a letter's view read as a number
    letter_touch_overhang: float = 0.0  # writing heights its underline reaches past it
    touch_slant: float = 0.2  # largest slant of the stroke (column shift per row)
    touch_slant_step: float = 0.1  # step between the slants tried
    touch_lower: float = 0.45  # share of the writing's height searched, from the bottom
    touch_length: float = 0.3  # least length of the stroke, writing heights
    touch_cover: float = 0.8  # least length over the width of the writing above it
    touch_overhang: float = 0.15  # writing heights it reaches past that writing
    touch_bottom: float = 0.4  # writing heights from the writing's bottom
    touch_narrow: float = 0.6  # writing heights: least width its length is measured on
    touch_below: float = 0.25  # most ink below it, over its own
    touch_ink: float = 0.4  # crop darkness (0..1, of the writing's) the stroke is found in
    pen_owner_separation: float = 4.0  # least colour distance of the two owners' inks (0: off)
    pen_owner_least: int = 2  # least numbers written with each ink
    pen_owner_agree: float = 0.8  # least share of the numbers whose ink and underline agree
    pen_owner_spread: float = 0.03  # log transmittance: least spread of an ink's colour
    pen_owner_cap: float = 12.0  # largest log-odds the ink's colour adds
    pen_owner_far: float = 7.0  # colour distance of two inks beyond doubt two pens
    pen_owner_far_agree: float = 0.7  # least share that agrees for inks that far apart
    pen_ink: float = 0.6  # crop darkness of the ink pixels whose colour is taken
    pen_paper: float = 0.02  # crop darkness of the paper pixels beside them
    pen_shade_floor: float = 0.02  # least ink darkness of the shade split (0: off)
    map_margin: float = 20.0
    border_bar_reach: float = 0.15  # writing heights beside its box border ink is added (0: off)
    border_bar_rise: float = 0.15  # ... above and below its box
    border_bar_digits: str = "17"  # the readings looked at (what a digit less its bar reads as)
    border_bar_least: float = 0.2  # least border pixels added, over the crop's ink pixels
    border_bar_most: float = 0.6  # most border pixels added, over the crop's ink pixels
    border_bar_prob: float = 0.8  # least posterior of the view's digit
    border_underline: float = 0.9  # underline of a number over a border piece of its own (1: off)
    border_underline_reach: float = 0.3  # writing heights the piece may reach past the box across
    border_underline_rise: float = 0.3  # ... its top above the box's bottom, at most
    border_underline_drop: float = 0.6  # ... its bottom below the box's bottom, at most
    border_underline_width: float = 0.9  # least width of the piece over the number's
    border_underline_height: float = 0.6  # most height of the piece, writing heights


@dataclass(frozen=True)
class Cluster:
    """A group of writing components inside one region, in working coordinates."""

    region: int
    bbox: tuple[int, int, int, int]  # x0, y0, x1, y1 (exclusive)
    components: tuple[int, ...]
    #: Height of the cluster's box over the typical writing height of the page.
    height: float = 1.0
    #: For one side of a trial split (see :func:`split_clusters`): the index of the
    #: whole cluster in the page's list, and 0 (left part) or 1 (right part).
    split_of: tuple[int, int] | None = None
    #: When one of its components is a straight bar with all the rest of the cluster on
    #: one side (an underline): the rotation (degrees, counter-clockwise) that turns that
    #: side up. Evidence of which way the page's writing is turned.
    bar_up: float | None = None
    #: Whether writing too light for the ink mask was added beside its components.
    faint: bool = False
    #: Whether it is made of writing too light for the ink mask only (see
    #: ``MarksSettings.light_seed``).
    light: bool = False
    #: Whether that light writing was found at ``MarksSettings.fainter_low``.
    fainter: bool = False
    #: Whether a border runs right under it (see ``MarksSettings.underline_on_border``).
    on_border: bool = False
    #: The top-left corner of its crop in the frame it was cut in, and the writing's
    #: darkness the crop is scaled by (see :func:`_reread_ruled`).
    origin: tuple[int, int] = (0, 0)
    top: float = 0.0

    @property
    def text_h(self) -> float:
        """The page's typical writing height in pixels, from this cluster's box."""
        return (self.bbox[3] - self.bbox[1]) / max(self.height, 1e-6)

    @property
    def crop_box(self) -> tuple[int, int, int, int]:
        """Its box in its crop (``bbox`` less ``origin``): x0, y0, x1, y1."""
        ox, oy = self.origin
        return (self.bbox[0] - ox, self.bbox[1] - oy, self.bbox[2] - ox, self.bbox[3] - oy)


@dataclass(frozen=True)
class ClusterReading:
    """What the reader made of one cluster."""

    cluster: Cluster
    text: str
    probability: float
    underlined: float
    crossed: float
    #: The likeliest single letter, and the posterior mass of all single letters.
    alt_letter: str = ""
    letter_mass: float = 0.0
    #: Fraction of the crop's ink pixels that are mid-tones (see
    #: ``MarksSettings.soft_fraction``): how blurred or faint the writing is.
    softness: float = 0.0
    #: The likeliest number, and the posterior mass of all numbers.
    alt_number: str = ""
    number_mass: float = 0.0

    @property
    def whole_number(self) -> bool:
        """Whether a whole cluster (not a trial-split part) is read as a number."""
        return self.cluster.split_of is None and self.text.isdigit()

    @property
    def number(self) -> int | None:
        digits_part = self.text.lstrip(digits.LETTERS)
        return int(digits_part) if digits_part else None

    @property
    def letter(self) -> str | None:
        return self.text[0] if self.text and self.text[0].isalpha() else None


def read_marks(
    seg: Segmentation, *, backend: str = "cnn", settings: MarksSettings | None = None
) -> dict[int, CountryMarks]:
    """Read the marks of every region of a segmented page.

    Parameters
    ----------
    seg : Segmentation
        Output of the region stage; uses ``gray``, ``writing``, ``labels``, ``regions``,
        ``line_width``.
    backend : {"cnn", "tesseract"}
        Who reads the text of each cluster. Underline and cross-out always come from the
        network (Tesseract cannot tell them).
    settings : MarksSettings, optional
        Thresholds; the defaults when omitted. An object with a ``marks`` attribute (a
        reader-wide settings object) is accepted too.

    Returns
    -------
    dict of int to CountryMarks
        One entry per region index of ``seg.regions``.

    Raises
    ------
    ValueError
        For an unknown backend.
    aggression_vision.vision.digits.ModelNotFoundError
        When the model file is missing.
    """
    return read_page(seg, backend=backend, settings=settings).marks


@dataclass(frozen=True)
class PageReading:
    """Everything :func:`read_marks` works out on a page (for diagnostics).

    Attributes
    ----------
    marks : dict of int to CountryMarks
        The result of :func:`read_marks`.
    angle : float
        The writing's rotation (degrees, counter-clockwise) the clusters were cut in.
    clusters, crops : lists
        Whole clusters and trial-split parts as :func:`extract_clusters` returns them:
        boxes in the page's frame when the page was not turned, else in the frame of
        the map's window (see ``MarksSettings.map_margin``) turned by ``angle``.
    readings : list of ClusterReading
        One per cluster of ``clusters`` (whole clusters and trial-split parts), after
        the reading steps and before :func:`resolve_splits` chose between them.
    """

    marks: dict[int, CountryMarks]
    angle: float
    clusters: list[Cluster]
    crops: list[NDArray[np.float32]]
    readings: list[ClusterReading]


def read_page(
    seg: Segmentation,
    *,
    backend: str = "cnn",
    settings: MarksSettings | None = None,
    angle: float | None = None,
) -> PageReading:
    """:func:`read_marks` with its intermediate results; same parameters.

    ``angle``: the writing's rotation when it is known (diagnostics: the reading with
    the orientation taken out of the question); found by :func:`writing_orientation`
    when None.
    """
    if backend not in ("cnn", "tesseract"):
        raise ValueError(f"unknown OCR backend {backend!r} (expected 'cnn' or 'tesseract')")
    cfg = _settings(settings)
    turn = 0.0
    beside = False  # (whether the light writing was looked for beside a letter)
    # The network's outputs for the voters read unturned (the same crops as the reading
    # of an upright page).
    upright: dict[int, tuple[NDArray[np.float32], float, float]] = {}
    # The splits are cut once the orientation is known: a turned page is cut again.
    seg_full = seg
    frame_borders = seg.borders  # (the borders in the clusters' frame)
    seg, (ox, oy) = _map_window(seg, cfg.map_margin)
    frame_gray = seg_full.gray  # (the grey in the clusters' frame)
    first = _Extraction(seg, cfg, vote=True)
    clusters, crops = first.clusters, first.crops
    net = digits.load_net() if crops else None
    if net is not None:
        # Voters: whole clusters as the ink mask has them (light ink added beside a
        # cluster is less sure to be its writing).
        pairs = [(c, cl) for c, cl in zip(crops, clusters, strict=True) if cl.split_of is None]
        voting = [(c, cl) for c, cl in pairs if not cl.faint] or pairs
        whole = [c for c, _ in voting]
        bars = [cl.bar_up for cl in clusters if cl.bar_up is not None]
        bar_crops = [c for c, cl in zip(crops, clusters, strict=True) if cl.bar_up is not None]
        vote_cfg = cfg
        if looks_labelled([(c, cl.region) for c, cl in pairs], cfg.labelled_page_fraction):
            vote_cfg = replace(cfg, orientation_letter_penalty=0.0)
        if angle is None:
            turn = writing_orientation(
                whole,
                net,
                rectified=is_rectified(seg_full),
                settings=vote_cfg,
                bars=bars,
                bar_crops=bar_crops,
                upright=upright,
                on_borders=_on_borders(first, [cl for _, cl in voting], cfg),
                axes=None if is_rectified(seg_full) else ruling_axes(seg, cfg),
                margin=margin_turn(seg_full, cfg),
            )
        else:
            turn = angle
        if turn:
            # Group the writing again in the writing's own frame: which strokes are side
            # by side and which are stacked depends on which way is up.
            turned = _rotate_window(seg, (ox, oy), seg_full.gray.shape, turn)
            frame_borders = turned.borders
            frame_gray = turned.gray
            again = _Extraction(turned, cfg, bars=False, light=True)
            clusters, crops = again.with_splits()
            beside = again.light_beside
    if not turn:
        voted = upright
        if not first.same_for_reading or cfg.outline_margin > 0:
            upright = {}  # (other crops)
        reading = first.for_reading()
        if reading is not first and reading.cut is not None:
            # The network's outputs for the voters cut alike for reading (see ``_Cutter``).
            for crop, voter in reading.cut.reused:
                row = voted.get(id(voter))
                if row is not None and np.array_equal(crop, voter):
                    upright[id(crop)] = row
        reading.add_light()
        beside = reading.light_beside
        clusters, crops = reading.with_splits()
        # (Boxes back in the page's frame.)
        clusters = [
            replace(
                c,
                bbox=(c.bbox[0] + ox, c.bbox[1] + oy, c.bbox[2] + ox, c.bbox[3] + oy),
                origin=(c.origin[0] + ox, c.origin[1] + oy),
            )
            for c in clusters
        ]
    else:
        upright = {}
    lp: list[NDArray[np.float32]] = []
    ll: list[NDArray[np.float64]] = []
    inputs: dict[int, NDArray[np.float32]] = {}
    readings = read_clusters(
        crops,
        clusters,
        backend=backend,
        settings=cfg,
        net=net,
        known=upright,
        logprobs=lp,
        inputs=inputs,
        likelihoods=ll,
    )
    # (The texts the first network read each crop as, before any reading again.)
    first_texts = [r.text for r in readings]
    if net is not None and backend == "cnn" and cfg.view_angles:
        readings = _reread_turned(readings, crops, lp[0], net, cfg, inputs=inputs)
    if net is not None and backend == "cnn":
        readings = _reread_ones(readings, crops, net, cfg)
        readings = _numbers_in_nothing(readings, cfg, crops)
        readings = _line_ones(readings, frame_gray, cfg)
        readings = pair_reread(readings, crops, cfg, inputs=inputs)
    if net is not None:
        readings = second_opinion(readings, crops, cfg, inputs=inputs)
        if backend == "cnn":
            readings = crossed_text(
                readings,
                crops,
                net,
                cfg,
                logprobs=lp[0] if lp else None,
                likelihoods=ll[0] if ll else None,
            )
        settled = [r.crossed for r in readings]  # (before the cleaned views' word)
        lw = float(seg_full.line_width)
        # (The crops cleaned of printed ruling, by index: the crops and clusters stay.)
        ruled: dict[int, NDArray[np.float32] | None] = {}
        if cfg.ruling_contrast < 1.0:
            readings = _reread_ruled(readings, crops, frame_gray, net, cfg, ruled)
        if backend == "cnn" and cfg.crossed_underlined:
            readings = _crossed_without_underline(readings, crops, net, lw, cfg)
        if backend == "cnn":
            readings = _touching_underlines(readings, crops, net, lw, cfg, first_texts)
        underline_ruled = cfg.ruling_contrast < 1.0 and cfg.underline_ruled
        if underline_ruled:
            readings = _ruled_underlines(readings, crops, frame_gray, net, lw, cfg, ruled)
        if backend == "cnn":
            rules = ruled if underline_ruled else None
            readings = _faint_underlines(readings, crops, net, cfg, frame_gray, rules)
            readings = crossed_views(readings, crops, settled, cfg)
            readings = crossed_net_word(readings, crops, cfg, inputs=inputs)
    if net is not None and backend == "cnn":
        readings = second_sevens(readings, crops, cfg, inputs=inputs)
        readings = _border_bars(
            readings, crops, frame_gray, frame_borders, net, cfg, ll[0] if ll else None
        )
        readings = border_underlines(readings, frame_borders, cfg)
        if ll:
            readings = _doubled_ones(readings, ll[0], cfg)
    # (Letters that count only once the numbers are read: see ``unique_light_mass``.)
    unique = _unique_letters(readings, cfg)
    # Light pieces are only taken for a confident number, not a lone stroke (paper
    # texture, a shadow's edge or a faint printed mark reads as something else, as
    # nothing sure or as a 1): the others read as nothing.
    readings = _light_kept(readings, cfg, crops, n_regions=len(seg_full.regions))
    resolved = resolve_splits(readings, cfg)
    with_letter = {r.cluster.region for r in resolved if r.letter}
    n_countries = max(1, len(seg_full.regions))
    labelled = len(with_letter) >= cfg.labelled_fraction * n_countries
    plain = len(with_letter) < cfg.plain_fraction * n_countries
    sparse = len(with_letter) < cfg.shaped_fraction * n_countries
    if labelled:
        # A lettered page names every country: one whose writing holds no letter
        # reading has its letter grouped with its number, and a split into a letter
        # and a number needs less evidence there.
        # (A country with two number readings of writing height holds its letter too: one
        # of them, see ``labelled_fraction``.)
        holding = _named_regions(readings, with_letter, cfg)
        resolved = resolve_splits(readings, cfg, lettered=holding)
        if cfg.ones_pair_height > 0 and cfg.ones_pair_named <= 1.0:
            # (A country whose letter stands apart: two strokes beside it are "11".)
            named = _named_clusters(resolved, cfg.ones_pair_named)
            paired = _stroke_pairs(readings, crops, cfg, lambda cl: id(cl) in named)
            if paired is not readings:
                readings = paired
                resolved = resolve_splits(
                    readings, cfg, lettered=_named_regions(readings, with_letter, cfg)
                )
    elif cfg.ones_pair_height > 0:
        # (On a page that names no countries: an I beside a 1 is a lettered page's.)
        paired = _stroke_pairs(readings, crops, cfg)
        if paired is not readings:
            readings = paired
            resolved = resolve_splits(readings, cfg)
    if not labelled and net is not None and backend == "cnn":
        # (A page that names no countries holds no letter: a letter may be a number
        # whose underline touches it.)
        read_again = _underlined_letters(readings, crops, net, float(seg_full.line_width), cfg)
        if read_again is not readings:
            readings = read_again
            resolved = resolve_splits(readings, cfg)
    if labelled and not beside and cfg.light_labelled_again and not cfg.light_beside_any:
        # (The page names its countries though it did not look so when the light writing
        # was looked for: its numbers may all be light. See ``light_labelled_again``.)
        return read_page(
            seg_full, backend=backend, settings=replace(cfg, light_beside_any=True), angle=turn
        )
    resolved = _mark_on_border(resolved, frame_borders, cfg)
    by_region: dict[int, list[ClusterReading]] = {}
    for r in resolved:
        by_region.setdefault(r.cluster.region, []).append(r)
    owners: dict[int, tuple[ClusterReading, float]] = {}
    doubts: dict[int, tuple[float, float]] = {}
    marks = {
        reg.index: _combine(
            by_region.get(reg.index, []),
            cfg,
            labelled=labelled,
            plain=plain,
            sparse=sparse,
            owners=owners,
            doubts=doubts,
        )
        for reg in seg_full.regions
    }
    if labelled and cfg.missing_letter_mass <= 1.0:
        marks = _missing_letters(marks, by_region, owners, cfg)
    if cfg.pen_owner_separation > 0 and owners:
        back = _page_matrix(turn, (ox, oy), seg.gray.shape, seg_full.gray.shape)
        marks = _pen_owners(marks, owners, clusters, crops, seg_full.image, back, cfg)
    if backend == "cnn" and ll:
        posts = _number_posteriors(marks, owners, clusters, ll[0], cfg.hundred_letter_part)
        if cfg.hundred_owner <= 1.0:
            moved = hundred_owners(marks, {k: m for k, (_, m) in owners.items()}, posts, cfg)
            if moved is not marks:
                # (The players' totals changed: whose posteriors are asked changes too.)
                marks = moved
                posts = _number_posteriors(marks, owners, clusters, ll[0], cfg.hundred_letter_part)
        marks = hundred_armies(marks, posts, cfg)
        marks = hundred_blanks(marks, _blank_posteriors(marks, by_region, clusters, ll[0]), cfg)
    marks = lone_hundred(marks, cfg)
    crosses = {k: p for k, (p, _) in doubts.items()}
    marks = unconquerable_crosses(marks, seg_full.adjacency, crosses, cfg)
    marks = balanced_turns(marks, seg_full.adjacency, doubts, cfg)
    marks = placing_crosses(marks, crosses, cfg)
    if labelled and unique:
        marks = _named_by_unique(marks, unique)
    return PageReading(marks, float(turn), clusters, crops, readings)


def _map_window(seg: Segmentation, margin: float) -> tuple[Segmentation, tuple[int, int]]:
    """The arrays of ``seg`` inside the map's bounding box grown by ``margin`` line
    widths (see ``MarksSettings.map_margin``), and the box's top-left corner."""
    if seg.labels.size == 0:
        return seg, (0, 0)
    # (The labelled pixels' box by OpenCV: one pass over a mask.)
    bx, by, bw, bh = cv2.boundingRect((seg.labels != 0).view(np.uint8))
    if bw == 0:
        return seg, (0, 0)
    m = int(round(margin * max(float(seg.line_width), 1.0)))
    hh, ww = seg.labels.shape
    y0, y1 = max(0, by - m), min(hh, by + bh + m)
    x0, x1 = max(0, bx - m), min(ww, bx + bw + m)
    # Even distances to the image's edges: OpenCV labels connected components in 2x2
    # blocks, and the order of the labels (which the grouping follows) stays the same
    # when the blocks do, in the page's frame and turned.
    y0, x0 = y0 - y0 % 2, x0 - x0 % 2
    y1, x1 = y1 + (hh - y1) % 2, x1 + (ww - x1) % 2
    if (y0, y1, x0, x1) == (0, hh, 0, ww):
        return seg, (0, 0)
    box = np.s_[y0:y1, x0:x1]
    window = replace(
        seg,
        gray=seg.gray[box],
        ink=seg.ink[box],
        borders=seg.borders[box],
        writing=seg.writing[box],
        labels=seg.labels[box],
        timings={},
    )
    return window, (x0, y0)


def _settings(settings: object) -> MarksSettings:
    if settings is None:
        return MarksSettings()
    if isinstance(settings, MarksSettings):
        return settings
    inner = getattr(settings, "marks", None)
    return inner if isinstance(inner, MarksSettings) else MarksSettings()


def extract_clusters(
    seg: Segmentation,
    settings: MarksSettings | None = None,
    *,
    splits: bool = False,
    bars: bool = True,
    light: bool = False,
) -> tuple[list[Cluster], list[NDArray[np.float32]]]:
    """Group the writing of each region into clusters and cut out their ink.

    With ``splits``, the clusters are followed by the two parts of each trial split of a
    cluster between its columns of ink (a letter written next to a number groups with
    it); those carry ``split_of``. See :func:`resolve_splits`. With ``bars``, clusters
    with an underline apart from the rest say which way is up (``bar_up``).

    Returns
    -------
    clusters : list of Cluster
    crops : list of (h, w) float32
        Ink darkness 0..1 of each cluster with everything else blanked.
    """
    ex = _Extraction(seg, settings or MarksSettings(), bars=bars, light=light)
    return ex.with_splits() if splits else (ex.clusters, ex.crops)


def _components(
    mask: NDArray[np.uint8],
) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]:
    """``ink.connected_components`` (16-bit labels where they surely fit: the same
    labels, several times faster on a map's window) with int32 labels."""
    n, cc, stats, cen = connected_components(mask)
    return n, np.asarray(cc, np.int32), np.asarray(stats, np.int32), np.asarray(cen, np.float64)


class _Extraction:
    """The clusters of a page and their crops (see :func:`extract_clusters`), with the
    state needed to cut their trial splits later (:meth:`with_splits`)."""

    def __init__(
        self,
        seg: Segmentation,
        cfg: MarksSettings,
        *,
        bars: bool = True,
        vote: bool = False,
        light: bool = False,
    ) -> None:
        """``vote``: cut for the orientation vote (``border_piece_vote_reach``); then
        ``same_for_reading`` says whether the reading's reach leaves the same pieces."""
        self.cfg = cfg
        self.same_for_reading = True
        self.clusters: list[Cluster] = []
        self.crops: list[NDArray[np.float32]] = []
        self.cut: _Cutter | None = None
        self.stats = np.zeros((0, 5), np.int32)
        self._read_keep: list[int] = []
        # The orientation vote reads the clusters with grid pieces along their country's
        # outline (``outline_margin``): its voters were tuned so; the reading without.
        self._outline = not vote
        self.text_h = 0.0
        #: Whether :meth:`add_light` looked beside one cluster of writing height.
        self.light_beside = False
        self._page: (
            tuple[Segmentation, NDArray[np.int32], NDArray[np.int32], NDArray[np.int32], int] | None
        ) = None
        self._specks: list[int] = []
        self._vote = vote
        self._find(seg, cfg, bars, vote, light)

    def add_light(self) -> None:
        """Add clusters of writing too light for the region stage's ink mask in the
        countries that hold no cluster of writing height (see ``light_seed``)."""
        cfg = self.cfg
        if self._page is None or cfg.light_seed >= 1.0 or not self.text_h:
            return
        seg, cc, stats, comp_region, touch = self._page
        text_h = self.text_h
        lw = max(float(seg.line_width), 1.0)
        tall: dict[int, int] = {}
        for cl in self.clusters:
            if cl.height >= cfg.number_min_height:
                tall[cl.region] = tall.get(cl.region, 0) + 1
        # (A labelled page's letters are of writing height: a country with one may
        # still lack its number.)
        beside = (
            cfg.light_labelled
            and 1 in tall.values()
            and (
                cfg.light_beside_any
                or looks_labelled(
                    [(c, cl.region) for c, cl in zip(self.crops, self.clusters, strict=True)],
                    cfg.labelled_page_fraction,
                )
            )
        )
        self.light_beside = bool(beside)
        lacking = [r.index for r in seg.regions if tall.get(r.index, 0) <= (1 if beside else 0)]
        top = max((r.index for r in seg.regions), default=0)
        lacking = [i for i in lacking if 0 < i <= top]
        if not lacking:
            return
        # (One more entry: a label beyond the regions' is clipped to it, outside.)
        lut = np.zeros(top + 2, np.uint8)
        lut[lacking] = 1
        # Their box, from every 4th pixel first (a country is many pixels wide).
        f = 4
        coarse = lut.take(seg.labels[::f, ::f], mode="clip")
        rows = np.flatnonzero(coarse.any(axis=1))
        if rows.size == 0:
            return
        cols = np.flatnonzero(coarse.any(axis=0))
        k = _background_side(text_h, cfg)
        hh, ww = seg.labels.shape
        y0, y1 = max(0, f * int(rows[0]) - f - k), min(hh, f * int(rows[-1]) + f + k)
        x0, x1 = max(0, f * int(cols[0]) - f - k), min(ww, f * int(cols[-1]) + f + k)
        box = np.s_[y0:y1, x0:x1]
        dark = _below_paper(seg.gray[box], k)
        ink = cc[box] > 0
        near_ink = ink
        if beside:
            # (The blurred edges of the letters' strokes are no light writing.)
            gap = np.ones((2 * int(round(cfg.light_gap * lw)) + 1,) * 2, np.uint8)
            near_ink = cv2.dilate(ink.view(np.uint8), gap) > 0
        # Erased pencil is several times lighter than the writing: the seed is also
        # a fraction of the writing's darkness around (its 90th percentile).
        seed = cfg.light_seed
        inked = dark[ink]
        if inked.size:
            seed = max(seed, cfg.light_relative * _percentile90(inked))
        seeds = dark >= seed
        seeds &= ~ink
        if not seeds.any():
            return  # (most pages: nothing that dark off the ink mask)
        if top + 2 <= 256:
            # (The same lookup in OpenCV's uint8 table: labels beyond it saturate to
            # 255, which it leaves out like the clipped lookup's last entry.)
            table = np.zeros(256, np.uint8)
            table[: top + 2] = lut
            small = np.clip(seg.labels[box], 0, 255).astype(np.uint8)
            free = cv2.LUT(small, table).view(bool)
        else:
            free = lut.view(bool).take(seg.labels[box], mode="clip")
        free &= ~near_ink
        reach = np.ones((2 * int(round(cfg.faint_border * lw)) + 1,) * 2, np.uint8)
        free &= cv2.dilate(seg.borders[box].astype(np.uint8), reach) == 0
        seeds &= free
        if not seeds.any():
            return
        m, lab, st, ok = _light_found(dark, free, seeds, cfg.light_low, seg.ruled, text_h, lw, cfg)
        labs = seg.labels[box]
        first = m
        if 0 < cfg.fainter_low < cfg.light_low:
            # Thin writing in a fine pen breaks into specks at ``light_low``: in the
            # countries where no piece was found, the pieces of a lower level (on paper
            # clean enough for it, see ``fainter_low``).
            got: set[int] = set()
            for i in np.flatnonzero(ok):
                x, y, w, h, _ = st[i]
                piece = lab[y : y + h, x : x + w] == i
                got.update(np.unique(labs[y : y + h, x : x + w][piece]).tolist())
            ys, xs = np.nonzero(seeds)
            bare = set(lacking) - got
            rest = [rg for rg in np.unique(labs[ys, xs]).tolist() if rg in bare]
            grains = _paper_grain(rest, labs, dark, free)
            clean = [rg for rg in rest if grains[rg] <= cfg.fainter_paper]
            if clean:
                free2 = free & np.isin(labs, clean)
                m2, lab2, st2, ok2 = _light_found(
                    dark, free2, seeds & free2, cfg.fainter_low, seg.ruled, text_h, lw, cfg
                )
                if ok2.any():
                    # (No piece of the first search lies in those countries.)
                    lab = np.where(ok2[lab2], lab2 + m, np.where(ok[lab], lab, 0))
                    st = np.concatenate([st, st2])
                    ok = np.concatenate([ok, ok2])
                    m += m2
        # Paper is taken as the brightest grey in a square: around a bright speck (glare,
        # a grain of the paper) a square of that side reads darker and may hold seeds (an
        # empty sudoku cell read "6"). A piece counts only when it still holds one with
        # the specks left out.
        gray_box = seg.gray[box]
        for i in np.flatnonzero(ok):
            if not _seeded_without_specks(lab, st[i], i, gray_box, k, seed):
                ok[i] = False
        found = np.flatnonzero(ok)
        if found.size == 0:
            return
        n = len(stats)
        new_ids = np.zeros(m, np.int32)
        new_ids[found] = n + np.arange(found.size, dtype=np.int32)
        sub = cc[box]
        pick = ok[lab]
        sub[pick] = new_ids[lab[pick]]
        add = st[found].copy()
        add[:, 0] += x0
        add[:, 1] += y0
        stats = np.concatenate([stats, add.astype(np.int32)])
        regs = [int(np.bincount(labs[lab == i]).argmax()) for i in found]
        comp_region = np.concatenate([comp_region, np.asarray(regs, np.int32)])
        self._page = (seg, cc, stats, comp_region, touch)
        start = len(self.clusters)
        # (Light writing is as light as what the search beside a cluster would add:
        # printed ruling, mostly.)
        self._group(list(range(n, n + found.size)), False, text_h, faint=False)
        fainter_ids = {n + j for j, i in enumerate(found) if i >= first}
        self.clusters[start:] = [
            replace(c, light=True, fainter=any(i in fainter_ids for i in c.components))
            for c in self.clusters[start:]
        ]

    def for_reading(self) -> _Extraction:
        """The clusters as cut for reading: these, or (when the reading's border-piece
        reach leaves other pieces) those grouped again from the same components."""
        if (
            self.same_for_reading
            and (self._outline or self.cfg.outline_margin <= 0)
            and not (self._vote and self._specks)
        ):
            return self
        other = copy.copy(self)
        other.clusters, other.crops, other.same_for_reading = [], [], True
        other._outline = True
        other._vote = False
        other._group(self._read_keep, bars=False)
        return other

    def with_splits(self) -> tuple[list[Cluster], list[NDArray[np.float32]]]:
        """The whole clusters followed by the two parts of each of their trial splits."""
        clusters, crops = list(self.clusters), list(self.crops)
        if self.cut is None:
            return clusters, crops
        cfg = self.cfg
        for j, cl in enumerate(self.clusters):
            splits = _column_splits(cl.components, self.stats, cfg.split_max)
            if 0 < cfg.row_split_height <= cl.height:
                splits += _row_splits(
                    cl.components,
                    self.stats,
                    cfg.stack_height * self.text_h,
                    cfg.row_split_overlap,
                    cfg.row_split_small * self.text_h,
                )
            for left, right in splits:
                for side, part in enumerate((left, right)):
                    pc, ink = self.cut(part)
                    clusters.append(
                        replace(pc, split_of=(j, side), light=cl.light, fainter=cl.fainter)
                    )
                    crops.append(ink)
        return clusters, crops

    def _find(
        self, seg: Segmentation, cfg: MarksSettings, bars: bool, vote: bool, light: bool = False
    ) -> None:
        lw = max(float(seg.line_width), 1.0)
        writing = np.ascontiguousarray(_writing_union(seg).astype(np.uint8))
        n, cc_, stats_, _ = _components(writing)
        if n <= 1:
            return
        cc = np.asarray(cc_, np.int32)
        stats = np.asarray(stats_, np.int32)
        big = (stats[:, 4] >= cfg.min_component_area * lw * lw) & (
            np.maximum(stats[:, 2], stats[:, 3]) >= cfg.min_component_height * lw
        )
        # (At least 2 and 6 pixels: a one-pixel gap of anti-aliasing or JPEG is always
        # possible, whatever the line width.)
        touch = max(2, round(cfg.touch_reach * lw))
        comp_region = _component_regions(
            cc, n, stats, seg.labels, big, max(6, round(cfg.label_reach * lw))
        )
        keep = []
        specks = []
        for i in range(1, n):
            x, y, w, h, area = stats[i]
            if comp_region[i] == 0:
                continue
            if area < cfg.min_component_area * lw * lw or max(w, h) < cfg.min_component_height * lw:
                if area >= cfg.speck_least * lw * lw:
                    specks.append(i)
                continue
            keep.append(i)
        if seg.ruled:
            # (On ruled paper the specks are mostly what the ruling's removal left.)
            specks = []
        if specks:
            # (Nor near a border: a border's broken end or a corner's stub is no stroke.)
            r = max(1, round(cfg.speck_border * lw))
            specks = [
                i
                for i in specks
                if not seg.borders[
                    max(0, stats[i][1] - r) : stats[i][1] + stats[i][3] + r,
                    max(0, stats[i][0] - r) : stats[i][0] + stats[i][2] + r,
                ].any()
            ]
        self._specks = specks if cfg.speck_reach > 0 else []  # (see ``speck_reach``)
        if seg.ruled:
            keep = _drop_ruling_residue(keep, cc, stats, lw, cfg)
        reach = max(2, round(cfg.border_piece_reach * lw))
        if vote:
            vote_reach = max(2, round(cfg.border_piece_vote_reach * lw))
            # A piece within the shorter reach is one within the longer (the contact
            # grows with the reach): the shorter is tested on the longer's pieces only.
            near, far = sorted((reach, vote_reach))
            wide = {i for i in keep if _border_piece(cc, i, stats[i], seg.borders, cfg, far)}
            narrow = {i for i in wide if _border_piece(cc, i, stats[i], seg.borders, cfg, near)}
            read = [i for i in keep if i not in (wide if reach == far else narrow)]
            kept = [i for i in keep if i not in (wide if vote_reach == far else narrow)]
            read = [
                i for i in read if not _continued_bar(cc, i, stats[i], seg.borders, cfg, reach, lw)
            ]
            self.same_for_reading = read == kept
            self._read_keep = read
            keep = kept
        else:
            keep = [
                i
                for i in keep
                if not _border_piece(cc, i, stats[i], seg.borders, cfg, reach)
                and not _continued_bar(cc, i, stats[i], seg.borders, cfg, reach, lw)
            ]
        self._page = (seg, cc, stats, comp_region, touch)
        self._group(keep, bars)
        if light:
            self.add_light()

    def _group(
        self, keep: list[int], bars: bool, text_h: float | None = None, *, faint: bool = True
    ) -> None:
        """Group the components ``keep`` into clusters and cut them out (appended).

        ``text_h``: the writing height; by default from the components' heights.
        ``faint``: look for writing too light for the ink mask beside each cluster.
        """
        if not keep or self._page is None:
            return
        cfg = self.cfg
        seg, cc, stats, comp_region, touch = self._page
        if text_h is None:
            heights = np.array([stats[i][3] for i in keep], float)
            # Typical writing height: the median height of the taller half of the
            # components (underlines and dots are short).
            hs = np.sort(heights)
            text_h = float(np.median(hs[len(hs) // 2 :])) if len(hs) else 10.0
        self.text_h = text_h
        parent = {i: i for i in keep}

        def find(a: int) -> int:
            while parent[a] != a:
                parent[a] = parent[parent[a]]
                a = parent[a]
            return a

        gx, gy = cfg.group_gap_x * text_h, cfg.group_gap_y * text_h
        stack = cfg.stack_height * text_h
        by_region: dict[int, list[int]] = {}
        for i in keep:
            by_region.setdefault(int(comp_region[i]), []).append(i)
        for comps in by_region.values():
            # Flat strokes (underlines, bars) stacked on a taller component: joined to the
            # one above them when there is one (an underline belongs to the number it is
            # under; a letter written below the underline stays apart), else to those below.
            below_of: dict[int, list[int]] = {}
            has_above: set[int] = set()
            for a_i, a in enumerate(comps):
                ax, ay, aw, ah, _ = stats[a]
                for b in comps[a_i + 1 :]:
                    bx, by, bw, bh, _ = stats[b]
                    dx = max(0, max(ax, bx) - min(ax + aw, bx + bw))
                    dy = max(0, max(ay, by) - min(ay + ah, by + bh))
                    if dx > gx or dy > gy:
                        continue
                    stacked = min(ay + ah, by + bh) <= max(ay, by)
                    if stacked and min(ah, bh) >= stack:
                        continue
                    if stacked and max(ah, bh) >= stack:
                        flat, tall = (a, b) if ah < bh else (b, a)
                        if stats[tall][1] < stats[flat][1]:
                            has_above.add(flat)
                        else:
                            below_of.setdefault(flat, []).append(tall)
                            continue
                    parent[find(a)] = find(b)
            for flat, talls in below_of.items():
                if flat not in has_above:
                    for t in talls:
                        parent[find(flat)] = find(t)
        groups: dict[int, list[int]] = {}
        for i in keep:
            groups.setdefault(find(i), []).append(i)
        if faint and self._specks and not self._vote:
            lw = max(float(seg.line_width), 1.0)
            _attach_specks(groups, self._specks, stats, comp_region, cfg.speck_reach * lw)
        cut = _Cutter(seg, cc, stats, comp_region, text_h, cfg, outline=self._outline)
        prev = self.cut
        if (
            prev is not None
            and prev.outline is None
            and cut.outline is not None
            and prev.cc is cc
            and prev.stats is stats
            and prev.text_h == text_h
        ):
            # The clusters cut for reading that the orientation vote cut alike
            # (the same components, writing height and page): see ``_Cutter``.
            cut.unoutlined = prev.memo
        self.cut, self.stats = cut, stats
        for comps in sorted(groups.values(), key=lambda c: (stats[c[0]][1], stats[c[0]][0])):
            cl, ink = cut(comps, faint=faint)
            if bars:
                cl = replace(cl, bar_up=_bar_up(comps, cc, stats, seg.borders, cfg, touch))
            self.clusters.append(cl)
            self.crops.append(ink)


def _attach_specks(
    groups: dict[int, list[int]],
    specks: list[int],
    stats: NDArray[np.int32],
    comp_region: NDArray[np.int32],
    reach: float,
) -> None:
    """Add to ``groups`` (root -> components, in place) each of ``specks`` (component
    labels) whose box lies within ``reach`` pixels of the box of a group's component in
    the same region (``comp_region``), to the group of the nearest; ``stats``: the
    components' (x, y, w, h, area) rows. See ``MarksSettings.speck_reach``."""
    if not groups or not specks:
        return
    keys = list(groups)
    comps = np.array([c for k in keys for c in groups[k]], np.int64)
    owner = np.array([j for j, k in enumerate(keys) for _ in groups[k]], np.int64)
    cs = stats[comps].astype(np.float64)
    creg = comp_region[comps]
    for sp in specks:
        x, y, w, h, _ = (float(v) for v in stats[sp])
        dx = np.maximum(0.0, np.maximum(cs[:, 0], x) - np.minimum(cs[:, 0] + cs[:, 2], x + w))
        dy = np.maximum(0.0, np.maximum(cs[:, 1], y) - np.minimum(cs[:, 1] + cs[:, 3], y + h))
        d = np.hypot(dx, dy)
        d[creg != comp_region[sp]] = np.inf
        j = int(np.argmin(d))
        if d[j] <= reach:
            groups[keys[owner[j]]].append(sp)


def _light_found(
    dark: NDArray[np.float32],
    free: NDArray[np.bool_],
    seeds: NDArray[np.bool_],
    level: float,
    ruled: bool,
    text_h: float,
    lw: float,
    cfg: MarksSettings,
) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.bool_]]:
    """The pieces of light writing of ``_Extraction.add_light`` (see ``light_seed``):
    the pixels of ``free`` at least ``level`` dark, closed, in components; returns their
    count, labels and stats (``_components``) and which of them are light writing (a
    pixel of ``seeds``, the size of writing, not too dark, not printed ruling)."""
    lowish = dark >= level
    low = lowish & free
    if ruled and cfg.light_line > 0:
        low = _off_ruling(low, lowish, text_h, lw, cfg)
    # Pencil strokes are grainy: the gaps of their texture are closed.
    r = max(1, int(round(cfg.light_close * lw)))
    closed = np.asarray(
        cv2.morphologyEx(
            low.astype(np.uint8), cv2.MORPH_CLOSE, np.ones((2 * r + 1,) * 2, np.uint8)
        ),
        np.uint8,
    )
    closed &= free.astype(np.uint8)
    m, lab, st, _ = _components(closed)
    seeded = np.bincount(lab[seeds], minlength=m) > 0
    ok = (
        seeded
        & (st[:, 3] >= cfg.light_min_height * text_h)
        & (st[:, 3] <= cfg.light_max_height * text_h)
        & (st[:, 2] <= cfg.light_max_width * text_h)
        & (st[:, 4] >= cfg.min_component_area * lw * lw)
    )
    ok[0] = False
    for i in np.flatnonzero(ok):
        x, y, w, h, _ = st[i]
        piece = lab[y : y + h, x : x + w] == i
        # Darker than light writing: ink the region stage left out on purpose; or
        # straight bars along the page's sides: printed ruling. (Its pixels before the
        # closing: closed, a number's loops and strokes make a block of "bars".)
        too_dark = float(dark[y : y + h, x : x + w][piece].max()) > cfg.light_max
        drawn = piece & low[y : y + h, x : x + w]
        if too_dark or _ruling_piece(drawn, (x, y), lowish, text_h, cfg):
            ok[i] = False
    return m, lab, st, ok


#: :func:`_seeded_without_specks` leaves out bright specks narrower than this many pixels
#: (glare, a grain of the paper: a pixel or two at the working resolution, whatever the
#: writing's size; the paper's square itself scales with the writing).
_SPECK_PX = 3


def _seeded_without_specks(
    lab: NDArray[np.int32],
    stat: NDArray[np.int32],
    i: int,
    gray: NDArray[np.uint8],
    k: int,
    seed: float,
) -> bool:
    """Whether piece ``i`` of ``lab`` (its stats ``stat``; ``gray`` the same window)
    holds a pixel ``seed`` dark (:func:`_below_paper`, as the light search measures it)
    below the paper's level taken from the grey without its bright specks of a pixel or
    two (an erosion by ``_SPECK_PX`` first)."""
    x, y, w, h, _ = (int(v) for v in stat)
    hh, ww = gray.shape
    y0, y1, x0, x1 = max(0, y - k), min(hh, y + h + k), max(0, x - k), min(ww, x + w + k)
    win = gray[y0:y1, x0:x1]
    dark = _below_paper(win, k, cv2.erode(win, np.ones((_SPECK_PX, _SPECK_PX), np.uint8)))
    piece = lab[y0:y1, x0:x1] == i
    return bool(np.any(dark[piece] >= seed))


def _below_paper(
    gray: NDArray[np.uint8], k: int, level: NDArray[np.uint8] | None = None
) -> NDArray[np.float32]:
    """How much darker than the paper each pixel of ``gray`` is, as a share of the
    paper's level: the brightest grey of ``level`` (``gray`` itself when None) within a
    ``k`` x ``k`` square (dilated in uint8, the same maximum; the arithmetic in place:
    the window may be most of the map)."""
    paper = cv2.dilate(gray if level is None else level, np.ones((k, k), np.uint8))
    paper32 = paper.astype(np.float32)
    dark = np.subtract(paper32, gray.astype(np.float32))
    dark /= np.maximum(paper32, 1.0, out=paper32)
    return dark


def _paper_grain(
    regions: list[int],
    labs: NDArray[np.int32],
    dark: NDArray[np.float32],
    free: NDArray[np.bool_],
) -> dict[int, float]:
    """For each of ``regions`` (indices in ``labs``): the 75th percentile of the
    darkness of its ``free`` pixels (how grainy its paper is; writing covers far fewer
    of them), from every 4th row and column; 1.0 for a region with none."""
    if not regions:
        return {}
    lv, fv, dv = labs[::4, ::4], free[::4, ::4], dark[::4, ::4]
    out = {}
    for rg in regions:
        d = dv[fv & (lv == rg)]
        out[rg] = float(np.percentile(d, 75)) if d.size else 1.0
    return out


def _bar_up(
    comps: list[int],
    cc: NDArray[np.int32],
    stats: NDArray[np.int32],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
    touch: int,
) -> float | None:
    """Which way is up for a cluster with an underline apart from its other strokes.

    A component that is a straight bar (principal axes at least ``bar_elongation``
    apart), at least half as long as the rest of the cluster along it, with the rest of
    the cluster on one side of its line, is an underline (a cross-out goes through, a
    digit's bar lies between its other strokes): the writing stands on that side.
    Returns the counter-clockwise rotation (degrees) that turns that side up, or None.
    """
    if len(comps) < 2:
        return None
    pix = {}
    for c in comps:
        x, y, w, h, _ = stats[c]
        ys, xs = np.nonzero(cc[y : y + h, x : x + w] == c)
        pix[c] = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
    for c in comps:
        pts = pix[c]
        if len(pts) < 5:
            continue
        mu = pts.mean(axis=0)
        ev, evec = np.linalg.eigh(_cov((pts - mu).T))
        ev = ev + 1.0 / 12.0  # a one-pixel line has a width
        if ev[1] < cfg.bar_elongation**2 * ev[0]:
            continue
        along, normal = evec[:, 1], np.array([-evec[1, 1], evec[0, 1]])
        rest = np.concatenate([pix[o] for o in comps if o != c]) - mu
        if 4.0 * np.sqrt(ev[1]) < 0.5 * np.ptp(rest @ along):
            continue
        side = (rest @ normal > 0).mean()
        if 0.1 < side < 0.9:
            continue
        # A bar that runs into a border is a piece of that border (or of printed ruling
        # left inside the country), not an underline.
        if _touches(cc, c, stats[c], borders, touch):
            continue
        up = normal if side >= 0.9 else -normal
        # Image y points down: the up vector's angle counter-clockwise from +x.
        up_deg = np.degrees(np.arctan2(-up[1], up[0]))
        return float((90.0 - up_deg) % 360)
    return None


def _cov(x: NDArray[np.float64]) -> NDArray[np.float64]:
    """``np.cov(x)`` of a (2, N) array of N >= 2 points: the same operations in the same
    order (bit-identical), without np.cov's argument handling, which costs more than
    the sums for a cluster's few hundred pixels."""
    xc = np.array(x, dtype=np.float64)
    xc -= xc.mean(axis=1)[:, None]
    c = np.dot(xc, xc.T.conj())
    c *= np.true_divide(1, xc.shape[1] - 1)
    return c


def _border_piece(
    cc: NDArray[np.int32],
    c: int,
    stat: NDArray[np.int32],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
    touch: int,
) -> bool:
    """Whether component ``c`` is a straight, not flat bar along a border: a piece of it.

    ``touch``: pixels within which a pixel of it lies on the border.
    """
    x, y, w, h, _ = stat
    if max(w, h) < 3 * min(w, h) and max(w, h) < 3:
        return False
    found = _pixels_by_border(cc, c, stat, borders, touch)
    if found is None:
        return False
    ys, xs, (x0, y0, x1, y1) = found
    r = touch
    pts = np.stack([xs, ys], axis=1).astype(np.float64)
    # (+1/12: the variance of a pixel's width, so that a one-pixel line has a width.)
    ev, evec = np.linalg.eigh(_cov((pts - pts.mean(axis=0)).T))
    ev = ev + 1.0 / 12.0
    if ev[1] < cfg.border_piece_elongation**2 * ev[0]:
        return False
    # A flat bar may be an underline that runs into a border: kept (the frame is the
    # writing's, or the page's before the writing's orientation is known).
    if abs(evec[0, 1]) > np.cos(np.radians(cfg.border_piece_flat)):
        return False
    # Along a border over much of its length (a "1" written against a border touches
    # it at one end).
    kernel = np.ones((2 * r + 1,) * 2, np.uint8)
    near = cv2.dilate(borders[y0:y1, x0:x1].astype(np.uint8), kernel) > 0
    along = near[ys + y - y0, xs + x - x0].mean()
    return bool(along >= cfg.border_piece_contact)


def _pixels_by_border(
    cc: NDArray[np.int32],
    c: int,
    stat: NDArray[np.int32],
    borders: NDArray[np.bool_],
    touch: int,
) -> tuple[NDArray[np.intp], NDArray[np.intp], tuple[int, int, int, int]] | None:
    """Component ``c``'s pixels (rows, columns in its box) and its box grown by ``touch``
    pixels (x0, y0, x1, y1), when border ink lies in that grown box and it has at least 5
    pixels; else None (:func:`_border_piece`, :func:`_continued_bar`)."""
    x, y, w, h, _ = stat
    hh, ww = borders.shape
    r = touch
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(ww, x + w + r), min(hh, y + h + r)
    if not borders[y0:y1, x0:x1].any():
        return None  # (no border within reach: most writing)
    ys, xs = np.nonzero(cc[y : y + h, x : x + w] == c)
    if ys.size < 5:
        return None
    return ys, xs, (int(x0), int(y0), int(x1), int(y1))


def _band_underline(
    piece: NDArray[np.bool_],
    stat: NDArray[np.int32],
    own: NDArray[np.bool_],
    inner: NDArray[np.bool_],
    box: tuple[int, int, int, int],
    text_h: float,
    cfg: MarksSettings,
) -> bool:
    """Whether a long piece of a cluster's ink on its country's outline (see
    ``outline_margin``) is the number's underline drawn close to a border, kept in the
    crop (``outline_keeps_underline``): flat, in the lower half of the cluster's box
    (``box``, window coordinates), mostly inside the country (``inner``), under the rest
    of the cluster's ink (``own``) as :func:`_underline_span` places an underline."""
    x, y, w, h = (int(v) for v in stat[:4])
    x0, y0, x1, y1 = box
    if not _flat(w, h, text_h, cfg) or y < (y0 + y1) / 2:
        return False
    if np.count_nonzero(inner[piece]) < cfg.outline_underline_inside * np.count_nonzero(piece):
        return False
    cols = np.flatnonzero(own[:y].any(axis=0))  # (the writing above the piece)
    if cols.size == 0:
        return False
    return _underline_span(x, w, int(cols[0]), int(cols[-1]) + 1, cfg)


def _flat(w: float, h: float, text_h: float, cfg: MarksSettings) -> bool:
    """Whether a piece ``w`` wide and ``h`` high lies flat as an underline: a fraction
    (``stack_height``) of the writing's height ``text_h`` high, or long for its height
    (a slanted one)."""
    return h <= max(cfg.stack_height * text_h, w / 3) and w >= 2 * h


def _underline_span(x: float, w: float, x0: float, x1: float, cfg: MarksSettings) -> bool:
    """Whether a flat piece from column ``x``, ``w`` wide, spans the writing between
    columns ``x0`` and ``x1`` as its underline: under at least half of the narrower of
    the two, ``underline_min_width`` to ``underline_max_width`` times as wide."""
    cw = x1 - x0
    overlap = min(x + w, x1) - max(x, x0)
    return (
        overlap >= 0.5 * min(w, cw)
        and cfg.underline_min_width * cw <= w <= cfg.underline_max_width * cw
    )


def _continued_bar(
    cc: NDArray[np.int32],
    c: int,
    stat: NDArray[np.int32],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
    touch: int,
    lw: float,
) -> bool:
    """Whether component ``c`` is a thin bar that a straight border continues beyond both
    ends (see ``MarksSettings.border_continue_length``): a piece of that border.

    ``touch``: pixels within which the border lies off the bar's ends; ``lw``: the line
    width.
    """
    x, y, w, h, area = stat
    # (Area over the box's diagonal: at most the width of a bar that fits in the box;
    # most digits are too thick for this already, without looking at their pixels.)
    if area > cfg.border_continue_thickness * lw * float(np.hypot(w, h)):
        return False
    found = _pixels_by_border(cc, c, stat, borders, touch)
    if found is None:
        return False
    ys, xs, _ = found
    n = ys.size
    # Principal axes of the pixels in closed form (np.linalg.eigh costs more than the
    # rest of the test on a map with many strokes by its borders).
    dx, dy = xs - xs.mean(), ys - ys.mean()
    sxx, syy = float(dx @ dx) / (n - 1) + 1.0 / 12.0, float(dy @ dy) / (n - 1) + 1.0 / 12.0
    sxy = float(dx @ dy) / (n - 1)
    spread = float(np.hypot(0.5 * (sxx - syy), sxy))
    major, minor = 0.5 * (sxx + syy) + spread, 0.5 * (sxx + syy) - spread
    if major < cfg.border_continue_elongation**2 * minor:
        return False
    # (12 x the variance across: the width of a uniform band.)
    if 12.0 * minor > (cfg.border_continue_thickness * lw) ** 2:
        return False
    theta = 0.5 * np.arctan2(2.0 * sxy, sxx - syy)
    pts = np.stack([xs + x, ys + y], axis=1).astype(np.float64)
    axis = np.array([np.cos(theta), np.sin(theta)])
    return _continues_border(pts, axis, borders, cfg, touch, lw)


def _continues_border(
    pts: NDArray[np.float64],
    axis: NDArray[np.float64],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
    touch: int,
    lw: float,
) -> bool:
    """Whether border ink continues a bar straight on beyond BOTH its ends.

    ``pts``: the bar's pixels (x, y) in the page; ``axis``: its unit long axis. A piece of
    a straight border line that the region stage left in the writing (a gap of the
    printed grid line under a page's heading) has the line going on at each end along
    its own direction; an underline that runs into a border meets it across, over a
    line width or two, and does not end against a border at both ends in line.
    """
    length = cfg.border_continue_length * lw
    half = max(2.0, cfg.border_continue_width * lw)
    mu = pts.mean(axis=0)
    t = (pts - mu) @ axis
    t0, t1 = float(t.min()), float(t.max())
    reach = length + touch + 1
    hh, ww = borders.shape
    lo = np.floor(np.minimum(mu + t0 * axis, mu + t1 * axis) - reach).astype(int)
    hi = np.ceil(np.maximum(mu + t0 * axis, mu + t1 * axis) + reach).astype(int) + 1
    x0, y0 = max(0, lo[0]), max(0, lo[1])
    x1, y1 = min(ww, hi[0]), min(hh, hi[1])
    ys, xs = np.nonzero(borders[y0:y1, x0:x1])
    if ys.size == 0:
        return False
    q = np.stack([xs + x0, ys + y0], axis=1).astype(np.float64) - mu
    along = q @ axis
    across = q @ np.array([-axis[1], axis[0]])
    near = np.abs(across) <= half
    bins = max(2, int(round(2 * cfg.border_continue_length)))
    off = across[near]
    # Pixels per unit length: the bar's thickness, and the line's where it is found.
    thick = len(pts) / (t1 - t0 + 1.0)
    line = []
    for beyond in (t0 - along[near], along[near] - t1):
        # Distances beyond the end, from the end out to ``length``: the border must be
        # there over most of that stretch (a border across covers a line width of it)
        # and run along the bar's line (one crossing at a slant drifts across the band).
        sel = (beyond > 0) & (beyond <= touch + length)
        d = beyond[sel]
        if d.size < 3:
            return False
        filled = np.count_nonzero(
            np.bincount(np.minimum(bins - 1, (d / (touch + length) * bins).astype(int)))
        )
        if filled < cfg.border_continue_cover * bins:
            return False
        # (Least-squares slope of the offset across against the distance out.)
        dd, oo = d - d.mean(), off[sel] - off[sel].mean()
        slope = float(dd @ oo) / max(float(dd @ dd), 1e-12)
        if abs(slope) > np.tan(np.radians(cfg.border_continue_angle)):
            return False
        line.append(d.size / (filled * (touch + length) / bins))
    # A piece of the line is as thick as the line (thicker where something touches it);
    # a sliver left beside a line, or a thin stroke drawn along one, is thinner.
    return bool(thick >= cfg.border_continue_thick_ratio * max(line))


def _touches(
    cc: NDArray[np.int32], c: int, stat: NDArray[np.int32], mask: NDArray[np.bool_], r: int
) -> bool:
    """Whether component ``c`` touches ``mask`` (within ``r`` pixels)."""
    x, y, w, h, _ = stat
    hh, ww = mask.shape
    x0, y0, x1, y1 = max(0, x - r), max(0, y - r), min(ww, x + w + r), min(hh, y + h + r)
    near = cv2.dilate((cc[y0:y1, x0:x1] == c).astype(np.uint8), np.ones((2 * r + 1,) * 2, np.uint8))
    return bool(np.any(mask[y0:y1, x0:x1] & (near > 0)))


#: A cluster cut out, its crop, the crop as handed out, and the window's darkness and
#: ink mask the crop was made of (see ``_Cutter``).
_Cut = tuple[
    Cluster, NDArray[np.float32], NDArray[np.float32], NDArray[np.float32], NDArray[np.bool_]
]


class _Cutter:
    """Cuts the ink of a set of components out of the page (see :func:`extract_clusters`)."""

    def __init__(
        self,
        seg: Segmentation,
        cc: NDArray[np.int32],
        stats: NDArray[np.int32],
        comp_region: NDArray[np.int32],
        text_h: float,
        cfg: MarksSettings,
        *,
        outline: bool = True,
    ) -> None:
        lw = max(float(seg.line_width), 1.0)
        self.seg, self.cc, self.stats, self.comp_region, self.text_h = (
            seg,
            cc,
            stats,
            comp_region,
            text_h,
        )
        self.pad = int(round(cfg.ink_dilate * lw)) + 2
        self.k = _background_side(text_h, cfg)
        self.grow = np.ones((2 * int(round(cfg.ink_dilate * lw)) + 1,) * 2, np.uint8)
        self.cfg = cfg
        self.lw = lw
        self.near_border = np.ones((2 * int(round(cfg.faint_border * lw)) + 1,) * 2, np.uint8)
        self.min_area = cfg.min_component_area * lw * lw
        r = int(round(cfg.outline_margin * lw))
        self.outline = np.ones((2 * r + 1,) * 2, np.uint8) if outline and r > 0 else None
        self.reading = outline  # (cutting for reading, not for the orientation vote)
        # Clusters cut without the outline step, by components and ``faint`` (cluster,
        # crop, and the crop handed out); and those of a cutter without it on the same
        # page and writing height: where the outline step takes nothing off, the rest
        # of the cut is the same (``inner`` is what ``_light_ink`` works out without
        # it), so its cluster and crop are taken. ``reused``: the crops so taken, each
        # with the one the other cutter handed out.
        self.memo: dict[tuple[tuple[int, ...], bool], _Cut] = {}
        self.unoutlined: dict[tuple[tuple[int, ...], bool], _Cut] = {}
        self.reused: list[tuple[NDArray[np.float32], NDArray[np.float32]]] = []

    def __call__(
        self, comps: list[int], *, faint: bool = False
    ) -> tuple[Cluster, NDArray[np.float32]]:
        stats, pad, k = self.stats, self.pad, self.k
        hh, ww = self.seg.gray.shape
        x0 = min(stats[c][0] for c in comps)
        y0 = min(stats[c][1] for c in comps)
        x1 = max(stats[c][0] + stats[c][2] for c in comps)
        y1 = max(stats[c][1] + stats[c][3] for c in comps)
        reach = int(round(self.cfg.faint_reach * self.text_h)) if faint else 0
        down = int(round(self.cfg.underline_gap * self.text_h)) if faint else 0
        bx0, by0 = max(0, x0 - pad - k - reach), max(0, y0 - pad - k)
        bx1, by1 = min(ww, x1 + pad + k + reach), min(hh, y1 + pad + k + down)
        win = np.s_[by0:by1, bx0:bx1]
        own = _own_pixels(self.cc[win], comps, len(stats))
        # (Views, not copies: own and inner are new arrays of their own.)
        mask = cv2.dilate(own.view(np.uint8), self.grow) > 0
        region = int(self.comp_region[comps[0]])
        inner: NDArray[np.bool_] | None = None
        took = False  # (whether the outline step takes ink off)
        slant = self.reading and self.cfg.cut_ruling_contrast < 1.0
        if self.outline is not None:
            # Ink on or just inside the country's outline is printed grid or frame line
            # (a sudoku cell's corner welded to its digit) or lies outside the country
            # (a header's text grouped with a digit through a grid line): left out.
            inner = (self.seg.labels[win] == region) & ~self.seg.borders[win]
            band = own & (cv2.erode(inner.view(np.uint8), self.outline, borderValue=1) == 0)
            if band.any():
                # Only long pieces there: a digit's stroke that touches the border
                # leaves a short stub in the band and keeps it.
                n, lab, st, _ = _components(band.astype(np.uint8))
                long_ = np.flatnonzero(
                    np.maximum(st[:, 2], st[:, 3]) >= self.cfg.outline_piece * self.text_h
                )
                long_ = long_[long_ > 0]
                if long_.size and self.cfg.outline_keeps_underline:
                    box = (x0 - bx0, y0 - by0, x1 - bx0, y1 - by0)
                    keep = [
                        _band_underline(lab == i, st[i], own, inner, box, self.text_h, self.cfg)
                        for i in long_
                    ]
                    long_ = long_[~np.array(keep, bool)]
                if long_.size:
                    cut = np.isin(lab, long_).astype(np.uint8)
                    mask &= cv2.dilate(cut, self.grow) == 0
                    took = True
            same_cut = self.unoutlined.get((tuple(comps), faint))
            # (Light ink the vote's search added may be ruling that the reading's leaves
            # out: see ``faint_stroke``.)
            thin_out = self.cfg.faint_stroke > 0 and same_cut is not None and same_cut[0].faint
            if not took and same_cut is not None and not thin_out:
                same, same_ink, voted, same_dark, same_mask = same_cut
                ink = same_ink.copy()
                # (The cut for reading takes slanted ruling off, the vote's does not: off
                # the vote's window; the vote's crop is the same when none is taken off.)
                if slant and same.top > 0:
                    lines = self._ruling_off(same_dark, same_mask, same.crop_box, same.top)
                    if lines is not None:
                        ink[lines] = 0.0
                        return same, ink
                self.reused.append((ink, voted))
                return same, ink
        dark = _paper_minus_gray(self.seg.gray[win], k)
        inside = dark[mask]
        top = _percentile90(inside) if inside.size else 0.0
        found = None
        added = False
        # Only beside writing of some substance (not a sliver of border or ruling).
        anchor = x1 - x0 >= 2 * self.lw and y1 - y0 >= self.cfg.faint_min_height * self.text_h
        if faint and anchor and top > 0:
            box = (x0 - bx0, y0 - by0, x1 - bx0, y1 - by0)
            light = self._light_ink(dark, top, win, region, inner)
            # (Both searches need the borders' blurred edges, most of them not at all.)
            near_border = functools.cache(
                lambda: cv2.dilate(self.seg.borders[win].astype(np.uint8), self.near_border) > 0
            )
            found = self._faint(light, win, box, near_border)
            under = self._faint_underline(light, win, box, own, near_border, region, dark)
            if under is not None:
                added = True
                mask |= under[0]
                y1 = max(y1, under[1][3] + by0)
            if found is not None:
                mask |= found[0]
                fx0, fy0, fx1, fy1 = found[1]
                x0, y0 = min(x0, fx0 + bx0), min(y0, fy0 + by0)
                x1, y1 = max(x1, fx1 + bx0), max(y1, fy1 + by0)
            else:
                # Nothing found: the usual window (the same pixels as without the search:
                # the paper estimate of the ink pixels does not reach the window's edge).
                sx0, sx1 = max(0, x0 - pad - k), min(ww, x1 + pad + k)
                mask = mask[:, sx0 - bx0 : sx1 - bx0]
                dark = dark[:, sx0 - bx0 : sx1 - bx0]
        # (ox: the window's left edge, narrowed when no faint writing was found.)
        ox = bx0 if mask.shape[1] == bx1 - bx0 else max(0, x0 - pad - k)
        if self.cfg.grid_span < 1 and top > 0:
            mask &= ~_printed_lines(
                dark,
                (x0 - ox, y0 - by0, x1 - ox, y1 - by0),
                top,
                self.text_h,
                self.cfg,
                self.seg.borders[by0:by1, ox : ox + mask.shape[1]],
            )
        if slant and top > 0:
            lines = self._ruling_off(dark, mask, (x0 - ox, y0 - by0, x1 - ox, y1 - by0), top)
            if lines is not None:
                mask &= ~lines
                took = True
        # (dark >= 0: clipping at 1 is all np.clip(.., 0, 1) does.)
        ink = np.asarray(dark / max(top, 1.0), np.float32)
        np.minimum(ink, 1.0, out=ink)
        ink[~mask] = 0.0
        height = (y1 - y0) / self.text_h
        cl = Cluster(
            region,
            (x0, y0, x1, y1),
            tuple(comps),
            height,
            faint=added or found is not None,
            origin=(int(ox), int(by0)),
            top=float(top),
        )
        if self.outline is None:
            self.memo[(tuple(comps), faint)] = (cl, ink.copy(), ink, dark, mask)
        return cl, ink

    @functools.cached_property
    def cut_cfg(self) -> MarksSettings:
        """The settings :meth:`_slanted_ruling` looks for lines with (made once)."""
        return replace(self.cfg, ruling_contrast=self.cfg.cut_ruling_contrast)

    def _ruling_off(
        self,
        dark: NDArray[np.float32],
        mask: NDArray[np.bool_],
        box: tuple[int, int, int, int],
        top: float,
    ) -> NDArray[np.bool_] | None:
        """The pixels of the ink ``mask`` (of the window ``dark`` around the cluster's
        ``box``, ``top`` the writing's darkness) that lie on printed ruling at a slant
        and are taken off (:meth:`_slanted_ruling`, ``cut_ruling_most``), or None."""
        lines = self._slanted_ruling(dark, box, top)
        lines &= mask
        # (Writing mostly along a line is left whole: a "1" on the ruling, a bar.)
        n_lines = np.count_nonzero(lines)
        if n_lines and n_lines <= self.cfg.cut_ruling_most * np.count_nonzero(mask):
            return lines
        return None

    def _slanted_ruling(
        self, dark: NDArray[np.float32], box: tuple[int, int, int, int], top: float
    ) -> NDArray[np.bool_]:
        """Pixels of printed ruling at a slant through the window ``dark`` (darkness
        over the paper) around the cluster's ``box``, ``top`` the writing's darkness
        (see ``cut_ruling_contrast``): those no darker than ``ruling_keep`` times the
        line (a pen stroke crossing it is darker)."""
        cfg = self.cut_cfg
        # (The lines are measured off the box grown by the strokes' blur: a lone
        # stroke's own blur above and below it is no line.)
        g = self.pad
        h, w = dark.shape
        x0, y0, x1, y1 = box
        grown = (max(0, x0 - g), max(0, y0 - g), min(w, x1 + g), min(h, y1 + g))
        lines = _ruling_darkness(dark, grown, top, self.text_h, cfg, share=cfg.cut_ruling_share)
        if lines is None:
            return np.zeros(dark.shape, bool)
        return (np.minimum(dark, top) <= cfg.ruling_keep * lines) & (lines > 0)

    def _light_ink(
        self,
        dark: NDArray[np.float32],
        top: float,
        win: tuple[slice, slice],
        region: int,
        inner: NDArray[np.bool_] | None = None,
    ) -> NDArray[np.bool_]:
        """Ink at least ``faint_level`` as dark as the cluster's strokes, in ``region``,
        off the borders (the ink mask is taken off by the searches: each keeps the
        cluster's own pixels or not). ``inner``: the window's pixels in ``region`` off
        the borders when already known."""
        if inner is not None:
            return (dark >= self.cfg.faint_level * top) & inner
        low = (dark >= self.cfg.faint_level * top) & ~self.seg.borders[win]
        low &= self.seg.labels[win] == region
        return low

    def _light_pieces(
        self,
        low: NDArray[np.bool_],
        win: tuple[slice, slice],
        near_border: Callable[[], NDArray[np.bool_]],
        own: NDArray[np.bool_] | None = None,
        borders: NDArray[np.bool_] | None = None,
    ) -> tuple[int, NDArray[np.int32], NDArray[np.int32], NDArray[np.float64]]:
        """Connected pieces of ``low`` away from other ink (all but ``own``) and from
        ``near_border`` (the borders' blurred edges). With ``borders`` (the borders
        ``near_border`` grows), only the pieces that touch them lose their part near
        them (a blurred edge touches its border; a stroke apart from it is kept whole)."""
        others = self.cc[win] > 0
        if own is not None:
            others &= ~own
        taken = cv2.dilate(others.astype(np.uint8), self.grow) > 0
        low = low & ~others & ~taken
        near = near_border()
        if borders is not None and (low & near).any():
            n, lcc, _, _ = _components(low.astype(np.uint8))
            edge = cv2.dilate(borders.astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            touching = np.zeros(n, bool)
            touching[np.unique(lcc[edge & low])] = True  # (labels of low's pixels: >= 1)
            low = low & ~(near & touching[lcc])
        else:
            low = low & ~near
        n, lcc, lst, cen = _components(low.astype(np.uint8))
        return n, lcc, lst, cen

    def _faint_underline(
        self,
        light: NDArray[np.bool_],
        win: tuple[slice, slice],
        box: tuple[int, int, int, int],
        own: NDArray[np.bool_],
        near_border: Callable[[], NDArray[np.bool_]],
        region: int,
        dark: NDArray[np.float32],
    ) -> tuple[NDArray[np.bool_], tuple[int, int, int, int]] | None:
        """An underline too light or thin for the ink mask below a cluster.

        A flat piece of light ink (see ``faint_level``) in the same country under the
        cluster, as :func:`_below` places an underline, that ends inside the search
        window on both sides (printed ruling runs through it); or such a piece the region
        stage took for a border (see ``underline_border_pieces``); failing that, one
        found again as ``underline_stroke`` says. Returns its grown mask and box (window
        coordinates), or None.
        """
        cfg = self.cfg
        x0, y0, x1, y1 = box
        low = light & ((self.cc[win] == 0) | own)
        edge = self.seg.borders[win]
        if cfg.underline_border_pieces:
            pieces = self._border_pieces(win, (y0 + y1) // 2, region)
            if pieces is not None:
                low |= pieces
                edge = self.seg.borders[win] & ~pieces
                near = cv2.dilate(edge.astype(np.uint8), self.near_border) > 0
                near_border = lambda: near  # noqa: E731
        low[: (y0 + y1) // 2] = False
        if np.count_nonzero(low[y1:]) < self.min_area:
            return None
        width = low.shape[1]
        n, lcc, lst, _ = self._light_pieces(low, win, near_border, own)
        best = self._flat_under(n, lst, width, box)
        if not best and cfg.underline_stroke > 0:
            # A stroke the first search cut: off the borders' blurred edges but not
            # touching a border, or touching the digits (joined to their lower half it
            # is no flat piece). Taken only as thick as a pen's stroke (printed ruling
            # is thinner).
            for part in (low, low & ~own):
                n, lcc, lst, _ = self._light_pieces(part, win, near_border, own, edge)
                best = self._flat_under(n, lst, width, box)
                if best and self._stroke(lcc, lst, best) < cfg.underline_stroke:
                    best = 0
                if best:
                    break
        if not best:
            return None
        lx, ly, lw_, lh, _ = lst[best]
        if cfg.faint_underline_ruling > 0 and self.reading and self.seg.ruled:
            # A stretch of printed ruling the borders or the search cut out is no
            # underline; a stroke drawn along a line is darker than the line beside it.
            piece = lcc[ly : ly + lh, lx : lx + lw_] == best
            if _ruling_piece(piece, (lx, ly), light, self.text_h, cfg) and not _darker_than_beside(
                piece, (lx, ly), light, dark, self.text_h, cfg.faint_underline_ruling
            ):
                return None
        got = cv2.dilate((lcc == best).astype(np.uint8), self.grow) > 0
        return got, (int(lx), int(ly), int(lx + lw_), int(ly + lh))

    def _stroke(self, lcc: NDArray[np.int32], lst: NDArray[np.int32], i: int) -> float:
        """Piece ``i``'s pixels over its skeleton's length, in line widths."""
        x, y, w, h, area = (int(v) for v in lst[i])
        skeleton = thin(lcc[y : y + h, x : x + w] == i)
        return area / (self.lw * max(1, np.count_nonzero(skeleton)))

    def _flat_under(
        self, n: int, lst: NDArray[np.int32], width: int, box: tuple[int, int, int, int]
    ) -> int:
        """The widest of the ``n`` light pieces (stats ``lst``, label 0 the background)
        that lies flat under the cluster's ``box`` as its underline, ending inside the
        window (``width`` wide) on both sides; 0 when none does."""
        cfg, th = self.cfg, self.text_h
        x0, _, x1, y1 = box
        best, best_w = 0, 0
        for i in range(1, n):
            lx, ly, lw_, lh, area = lst[i]
            if not _flat(lw_, lh, th, cfg) or area < self.min_area:
                continue
            if lx <= 0 or lx + lw_ >= width:
                continue  # runs out of the window: ruling, a border's blur
            if ly + lh <= y1 or ly - y1 > cfg.underline_gap * th:
                continue
            if not _underline_span(lx, lw_, x0, x1, cfg):
                continue
            if lw_ > best_w:
                best, best_w = i, lw_
        return best

    def _border_pieces(
        self, win: tuple[slice, slice], mid: int, region: int
    ) -> NDArray[np.bool_] | None:
        """Pieces of the region stage's borders that lie whole inside the window's part
        below ``mid`` (window rows) with only this cluster's country around them: a
        stroke no border goes on from (an underline taken for a border, see
        ``underline_border_pieces``). None when there are none."""
        borders = self.seg.borders[win]
        below = borders[mid:]
        if not below.any():
            return None
        n, lab, st, _ = _components(below.view(np.uint8))
        hh, ww = below.shape
        labels = self.seg.labels[win][mid:]
        ring = np.ones((5, 5), np.uint8)
        # (Made when a piece is found: most windows hold none.)
        found: NDArray[np.bool_] | None = None
        th = self.text_h
        for i in range(1, n):
            x, y, w, h, _ = st[i]
            if x <= 0 or y <= 0 or x + w >= ww or y + h >= hh:
                continue  # runs on out of the window: a border
            if not _flat(w, h, th, self.cfg):
                continue  # (:meth:`_faint_underline` tests it again)
            piece = lab == i
            around = labels[(cv2.dilate(piece.view(np.uint8), ring) > 0) & ~piece]
            around = around[around > 0]
            if around.size and (around == region).all():
                if found is None:
                    found = np.zeros_like(borders)
                found[mid:][piece] = True
        return found if found is not None and found.any() else None

    def _faint(
        self,
        light: NDArray[np.bool_],
        win: tuple[slice, slice],
        box: tuple[int, int, int, int],
        near_border: Callable[[], NDArray[np.bool_]],
    ) -> tuple[NDArray[np.bool_], tuple[int, int, int, int]] | None:
        """Writing too light for the ink mask beside a cluster (a digit written lighter).

        Pieces of ink at least ``faint_level`` as dark as the cluster's strokes, in the
        same country, touching no other ink, of a character's size, side by side with
        the cluster within the grouping gap, and (cutting for reading) as thick as a
        pen's stroke (``faint_stroke``) and no printed ruling (``faint_ruling``). Returns
        their grown mask and box (window coordinates), or None.
        """
        cfg, th = self.cfg, self.text_h
        low = light & (self.cc[win] == 0)
        if np.count_nonzero(low) < self.min_area:
            return None  # (most clusters: no light ink around them at all)
        n, lcc, lst, _ = self._light_pieces(low, win, near_border)
        ruled = cfg.faint_ruling and self.seg.ruled  # (see ``faint_ruling``)
        x0, y0, x1, y1 = box
        hits = []
        for i in range(1, n):
            lx, ly, lw_, lh, area = lst[i]
            if not (cfg.faint_min_height * th <= lh <= 1.5 * th and lw_ <= 1.5 * th):
                continue
            if area < self.min_area:
                continue
            gap = max(lx - x1, x0 - (lx + lw_))
            overlap = min(ly + lh, y1) - max(ly, y0)
            if gap > cfg.faint_gap * th or overlap < 0.5 * lh:
                continue
            if self.reading:
                piece = lcc[ly : ly + lh, lx : lx + lw_] == i
                if cfg.faint_stroke > 0:
                    skeleton = thin(piece)
                    if area < cfg.faint_stroke * self.lw * np.count_nonzero(skeleton):
                        continue  # (printed ruling)
                if ruled and _ruling_piece(piece, (lx, ly), light, th, cfg):
                    continue
            hits.append(i)
        if not hits:
            return None
        got = np.isin(lcc, hits)
        b = lst[hits]
        box_out = (
            int(b[:, 0].min()),
            int(b[:, 1].min()),
            int((b[:, 0] + b[:, 2]).max()),
            int((b[:, 1] + b[:, 3]).max()),
        )
        return cv2.dilate(got.astype(np.uint8), self.grow) > 0, box_out


def _printed_lines(
    dark: NDArray[np.float32],
    box: tuple[int, int, int, int],
    top: float,
    text_h: float,
    cfg: MarksSettings,
    borders: NDArray[np.bool_] | None = None,
) -> NDArray[np.bool_]:
    """Pixels of printed ruling lines running through a cluster's window.

    A row (column) band of ink between ``grid_low`` and ``grid_find`` of the writing's
    darkness that covers ``grid_span`` of the window on both sides of the cluster's box
    (each side at least ``grid_margin`` writing heights wide) is a printed line: a
    hand-drawn cross-out or underline stops near the digits. Only its pixels lighter
    than ``grid_keep`` of the writing are returned (the pen's strokes crossing it stay).
    ``borders``: the window's border pixels, never part of a line.
    """
    h, w = dark.shape
    x0, y0, x1, y1 = box
    drop = np.zeros((h, w), bool)
    # (inRange keeps both ends: the largest float32 below the upper one is "< hi".)
    lo, hi = cfg.grid_low * top, cfg.grid_keep * top
    find = max(cfg.grid_find, cfg.grid_keep) * top
    below = float(np.nextafter(np.float32(find), np.float32(-np.inf)))
    margin = cfg.grid_margin * text_h
    light = None
    for axis in (0, 1):
        a0, a1, n = (x0, x1, w) if axis == 0 else (y0, y1, h)
        if a0 < margin or n - a1 < margin:
            continue
        if light is None:
            # Ink up to ``grid_find`` of the writing's darkness can make a line (pencil
            # ruling is about as dark as the writing), the borders never do (a sudoku's
            # grid is the countries' borders, and its digits touch it).
            light = cv2.inRange(np.ascontiguousarray(dark), lo, below)
            if borders is not None:
                light[borders] = 0  # (a sudoku's grid lines are the countries' borders)
        # (A line one pixel off a row is still the same line: three rows at once.)
        near = np.ones((3, 1) if axis == 0 else (1, 3), np.uint8)
        on = np.ones(h if axis == 0 else w, bool)
        for lo_, hi_ in ((0, a0), (a1, n)):
            side = light[:, lo_:hi_] if axis == 0 else light[lo_:hi_]
            band = cv2.dilate(side, near)
            on &= np.count_nonzero(band, axis=1 - axis) >= cfg.grid_span * (hi_ - lo_)
            if not on.any():
                break  # (the side with no line ends the search)
        if not on.any():
            continue
        on[1:] |= on[:-1].copy()
        on[:-1] |= on[1:].copy()
        if axis == 0:
            drop[on] = True
        else:
            drop[:, on] = True
    if drop.any():
        drop &= dark < hi
    return drop


def _ruling_darkness(
    dark: NDArray[np.float32],
    box: tuple[int, int, int, int],
    top: float,
    text_h: float,
    cfg: MarksSettings,
    share: float = 0.5,
) -> NDArray[np.float32] | None:
    """Darkness of the printed ruling lines running through a cluster's window, the
    families at their common slant (see :func:`_ruling_lines`)."""
    return _ruling_lines(dark, box, top, text_h, cfg, share, (False,))[0]


def _ruling_lines(
    dark: NDArray[np.float32],
    box: tuple[int, int, int, int],
    top: float,
    text_h: float,
    cfg: MarksSettings,
    share: float,
    kinds: tuple[bool, ...],
) -> list[NDArray[np.float32] | None]:
    """Darkness of the printed ruling lines running through a cluster's window, once
    per kind of search in ``kinds`` (the window's measures taken once for all).

    ``dark``: the window's darkness over the paper; ``box``: the cluster's box in it;
    ``top``: the writing's darkness. The ruling's slant is the dominant direction of the
    ink's edges around the box (modulo a quarter turn: a grid's two families agree);
    lines at about that slant are looked for along the rows, then the columns
    (:func:`_sheared_lines`). Returns the lines' darkness at each pixel (0 off them), or
    None when there is none. ``share``: the least share of each side along which a
    line is that dark (0.5: its median). A kind True: each family is also looked for at
    its own slant (see ``MarksSettings.ruling_sheared``).
    """
    x0, y0, x1, y1 = box
    capped = np.minimum(dark, top)
    across = np.ascontiguousarray(capped.T)
    # The level a line must reach along the rows, then along the columns; None where
    # none can be found (most windows: a count of the dark pixels says so, no slant).
    needs = [
        _line_need(c, span, top, text_h, cfg, share)
        for c, span in ((capped, (x0, x1)), (across, (y0, y1)))
    ]
    if needs[0] is None and needs[1] is None:
        return [None] * len(kinds)
    gx = cv2.Sobel(capped, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(capped, cv2.CV_32F, 0, 1, ksize=3)
    gx[y0:y1, x0:x1] = 0.0
    gy[y0:y1, x0:x1] = 0.0
    # Edge directions four times over (a quarter turn is a full one), weighted by the
    # edges' strength: the mean's angle / 4 is the grid's slant. (As cos 4a = ... in
    # the gradient's components, from every other pixel: a line is 2-3 pixels wide.)
    gx, gy = gx[::2, ::2], gy[::2, ::2]
    xx, yy = gx * gx, gy * gy
    r2 = xx + yy + 1e-6
    c2, s2 = xx - yy, 2 * gx * gy
    w = 1.0 / (r2 * np.sqrt(r2))  # (|g| (cos 4a, sin 4a) = (c2^2 - s2^2, 2 c2 s2) / |g|^3)
    c4, s4 = float(np.sum((c2 * c2 - s2 * s2) * w)), float(np.sum(2 * c2 * s2 * w))
    slant = float(np.degrees(np.arctan2(s4, c4))) / 4.0
    # Each family's own slant, directions twice over (a line's two edges agree): the
    # rows' from the edges pointing up or down, the columns' (along the rows of the
    # transposed window) from those pointing sideways.
    own: tuple[float | None, float | None] = (None, None)
    if any(kinds):
        g2 = np.sqrt(r2)
        c2, s2 = c2 / g2, s2 / g2
        up = yy > xx
        own = (
            float(np.degrees(np.arctan2(-np.sum(s2[up]), -np.sum(c2[up])))) / 2.0,
            float(np.degrees(np.arctan2(-np.sum(s2[~up]), np.sum(c2[~up])))) / 2.0,
        )
    step = cfg.ruling_step

    def slopes(own_slant: float | None) -> NDArray[np.float64]:
        family = (slant, -slant) if own_slant is None else (slant, -slant, own_slant)
        slants = [a + d for a in family for d in (-step, 0.0, step)]
        return np.tan(np.radians(np.clip(slants, -cfg.ruling_angle, cfg.ruling_angle)))

    out: list[NDArray[np.float32] | None] = []
    for sheared in kinds:
        rows = cols = None
        if needs[0] is not None:
            rows = _sheared_lines(
                capped, (x0, x1), needs[0], slopes(own[0] if sheared else None), share
            )
        if needs[1] is not None:
            cols = _sheared_lines(
                across, (y0, y1), needs[1], slopes(own[1] if sheared else None), share
            )
        if rows is None or cols is None:
            out.append(rows if cols is None else cols.T)
        else:
            out.append(np.maximum(rows, cols.T))
    return out


def _line_need(
    capped: NDArray[np.float32],
    span: tuple[int, int],
    top: float,
    text_h: float,
    cfg: MarksSettings,
    share: float,
) -> float | None:
    """The darkness a printed line along the rows of ``capped`` (darkness capped at
    ``top``) through both sides of the columns ``span`` (the cluster's box) must reach
    (see :func:`_sheared_lines`): the median of both sides plus ``ruling_contrast``
    times ``top``. None when a side is narrower than ``grid_margin`` writing heights
    ``text_h`` (at least 3 pixels), the window is under 3 rows, or no line that dark
    can run along ``share`` of each side (:func:`_enough_columns`)."""
    h, w = capped.shape
    a0, a1 = span
    margin = max(3.0, cfg.grid_margin * text_h)
    if a0 < margin or w - a1 < margin or h < 3:
        return None
    sides = np.concatenate((capped[:, :a0].ravel(), capped[:, a1:].ravel()))
    need = float(np.partition(sides, sides.size // 2)[sides.size // 2]) + cfg.ruling_contrast * top
    if not _enough_columns(capped, span, need, share):
        return None
    return need


def _enough_columns(
    capped: NDArray[np.float32], span: tuple[int, int], need: float, share: float
) -> bool:
    """Whether each side of the columns ``span`` of ``capped`` holds at least as many
    columns with a pixel ``need`` dark as a line along ``share`` of it needs, at any
    slope (:func:`_sheared_lines` finds none otherwise)."""
    w = capped.shape[1]
    a0, a1 = span
    left, right = capped[:, :a0], capped[:, a1:]
    n0 = min(a0 - 1, int(a0 * (1.0 - share)))
    n1 = min(w - a1 - 1, int((w - a1) * (1.0 - share)))
    cols_left = np.count_nonzero(left.max(axis=0) >= need)
    cols_right = np.count_nonzero(right.max(axis=0) >= need)
    return bool(cols_left >= a0 - n0 and cols_right >= w - a1 - n1)


def _sheared_lines(
    capped: NDArray[np.float32],
    span: tuple[int, int],
    need: float,
    slopes: NDArray[np.float64],
    share: float = 0.5,
) -> NDArray[np.float32] | None:
    """Darkness of straight lines running along the rows of ``capped`` (darkness capped
    at the writing's) at one of the ``slopes`` (rows per column) through both sides of
    the columns ``span`` (the cluster's box), at least ``need`` dark (see
    :func:`_line_need` and ``MarksSettings.ruling_contrast``). A line's darkness is
    the level it reaches along ``share`` of each side (0.5: the median), on the weaker
    side. The slope whose lines are the darkest is taken; None when no line is found."""
    h, w = capped.shape
    a0, a1 = span
    xs = np.concatenate((np.arange(a0), np.arange(a1, w)))
    nb = w - a1
    mid = (a0 + a1) / 2.0
    shift = np.rint(slopes[:, None] * (xs - mid)).astype(np.intp)
    pad = int(np.abs(shift).max(initial=0))
    # The window's columns, padded with paper above and below; the pixels along every
    # line are windows of h rows of them: (slope, side column, row) at once.
    cols = np.zeros((w, h + 2 * pad), capped.dtype)
    cols[:, pad : pad + h] = capped.T
    on = (cols >= need).view(np.uint8)
    # (Every run of h rows of each column, a view: ``sliding_window_view``'s, made
    # directly, without its checks' cost on these small windows.)
    runs = np.ndarray((w, 2 * pad + 1, h), np.uint8, on, 0, (on.strides[0], 1, 1))
    along = runs[xs, pad + shift]
    n0 = min(a0 - 1, int(a0 * (1.0 - share)))
    n1 = min(nb - 1, int(nb * (1.0 - share)))
    # (A line's level reaches ``need`` exactly where as many pixels of each side do:
    # most windows hold no such line, and the order statistics are taken only along
    # those that do; the others' level adds nothing to a slope's score.)
    lit = (along[:, :a0].sum(axis=1, dtype=np.uint16) >= a0 - n0) & (
        along[:, a0:].sum(axis=1, dtype=np.uint16) >= nb - n1
    )
    if not lit.any():
        return None
    ks, ys = np.nonzero(lit)
    cand = cols[xs, pad + ys[:, None] + shift[ks]]
    level = np.zeros(lit.shape, np.float32)
    level[lit] = np.minimum(
        np.partition(cand[:, :a0], n0, axis=1)[:, n0],
        np.partition(cand[:, a0:], n1, axis=1)[:, n1],
    )
    score = np.where(lit, np.maximum(level - need, 0.0), 0.0).sum(axis=1)
    k = int(np.argmax(score))
    if score[k] <= 0:
        return None
    ys = np.flatnonzero(lit[k] & (level[k] >= need))
    # The lines drawn across the whole window, padded as above (no column's shift is
    # larger than the sides'). (Along one column the lines' rows stay apart: no pixel
    # is written twice.)
    out = np.zeros((h + 2 * pad, w), np.float32)
    across = np.rint(slopes[k] * (np.arange(w) - mid)).astype(np.intp)
    out[pad + ys[:, None] + across, np.arange(w)] = level[k, ys][:, None]
    # (A printed line wavers by a pixel: one row either side too.)
    return np.asarray(cv2.dilate(out[pad : pad + h], np.ones((3, 1), np.uint8)), np.float32)


def _reread_ruled(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    gray: NDArray[np.uint8],
    net: digits.MarkNet,
    cfg: MarksSettings,
    ruled: dict[int, NDArray[np.float32] | None] | None = None,
) -> list[ClusterReading]:
    """The numbers read as crossed out, read again with the printed ruling through them
    taken out of their crops (see ``MarksSettings.ruling_contrast``; ``ruled``: the
    crops so cleaned, by index, shared with :func:`_ruled_underlines`).

    ``gray``: the grey image in the frame the clusters were cut in. The cross-out is the
    first network's word on the cleaned crop, with the second network's (``second_crossed``,
    ``second_crossed_weight``) when the first reads it as crossed (the least of the words
    on the crop's cleaned views, see ``ruling_sheared``); the text is the cleaned crop's
    (not the sheared view's) when that is a number read more surely and no longer crossed
    out (the ruling was the cross). The underline is left to
    :func:`_ruled_underlines` (the view at the rows' and columns' common slant).
    """
    # (Each number's cleaned views, as (number, view, whether its text is taken); see
    # ``ruling_sheared``.)
    cleaned: list[tuple[int, NDArray[np.float32], bool]] = []
    for i, r in enumerate(readings):
        if not r.whole_number or r.crossed <= cfg.mark_threshold:
            continue
        # Both views from one pass over the window, the common one kept in ``ruled``.
        kept = ruled is not None and i in ruled
        kinds = (() if kept else (False,)) + ((True,) if cfg.ruling_sheared else ())
        views = dict(zip(kinds, _cleaned_views(crops[i], r.cluster, gray, cfg, kinds), strict=True))
        if ruled is not None and kept:
            view = ruled[i]
        else:
            view = views[False]
            if ruled is not None:
                ruled[i] = view
        if view is not None:
            cleaned.append((i, view, True))
        other = views.get(True)
        if other is not None and (view is None or not np.array_equal(view, other)):
            cleaned.append((i, other, False))
    if not cleaned:
        return readings
    x = np.stack([digits.to_input(v) for _, v, _ in cleaned])
    first = net.run(x)
    crossed = first.crossed.astype(np.float64)
    texts, probs, _, _ = _readings(first.logprobs, pairs=cfg.pair_vocabulary)
    ask = [j for j in range(len(cleaned)) if crossed[j] > cfg.second_crossed]
    if ask and cfg.second_crossed < 1.0:
        again = digits.load_second_net().run(x[ask]).crossed
        wt = cfg.second_crossed_weight
        crossed[ask] = (1 - wt) * crossed[ask] + wt * again
    out = list(readings)
    least: dict[int, float] = {}
    for j, (i, _, text) in enumerate(cleaned):
        least[i] = min(least.get(i, 1.0), float(crossed[j]))
        out[i] = replace(out[i], crossed=least[i])
        # (Only a cleaned crop no longer crossed out gives its text: the ruling was the
        # cross. The text of a number still struck through is the crossed-out reader's,
        # which reads such numbers better than this network; see :func:`crossed_text`.)
        if (
            text
            and crossed[j] <= cfg.mark_threshold
            and texts[j].isdigit()
            and probs[j] > max(out[i].probability, cfg.ruled_text_least)
        ):
            out[i] = replace(out[i], text=texts[j], probability=float(probs[j]))
    return out


def _ruled_underlines(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    gray: NDArray[np.uint8],
    net: digits.MarkNet,
    line_width: float,
    cfg: MarksSettings,
    ruled: dict[int, NDArray[np.float32] | None] | None = None,
) -> list[ClusterReading]:
    """``readings`` with the underline of the numbers read as underlined whose crops hold
    printed ruling, read again without it: taken back when that view reads it clearly not
    underlined (see ``MarksSettings.underline_ruled``, ``underline_ruled_below``).
    ``gray``: the grey image in the clusters' frame; ``ruled``: as :func:`_reread_ruled`."""
    cleaned: dict[int, NDArray[np.float32]] = {}
    for i, r in enumerate(readings):
        cl = r.cluster
        if not r.whole_number or r.underlined <= cfg.mark_threshold:
            continue
        view = _ruled_view(i, crops, cl, gray, cfg, ruled)
        if view is None:
            continue
        # (A pen stroke under the digits left in the view: the underline is drawn.)
        text_h = cl.text_h
        if (
            _apart_underline(view, text_h, line_width, cfg) is not None
            or _touching_stroke(view, text_h, line_width, cfg) is not None
        ):
            continue
        cleaned[i] = view
    if not cleaned:
        return readings
    pick = list(cleaned)
    out = _run_views(net, [cleaned[i] for i in pick])
    result = list(readings)
    for j, i in enumerate(pick):
        u = float(out.underlined[j])
        if u < min(readings[i].underlined, cfg.underline_ruled_below):
            result[i] = replace(readings[i], underlined=u)
    return result


def _ruled_view(
    i: int,
    crops: list[NDArray[np.float32]],
    cl: Cluster,
    gray: NDArray[np.uint8],
    cfg: MarksSettings,
    ruled: dict[int, NDArray[np.float32] | None] | None,
) -> NDArray[np.float32] | None:
    """:func:`_without_ruling` of crop ``i`` (of cluster ``cl``), kept in ``ruled`` when
    given: a number read as crossed out and underlined is cleaned once."""
    if ruled is None:
        return _without_ruling(crops[i], cl, gray, cfg)
    if i not in ruled:
        ruled[i] = _without_ruling(crops[i], cl, gray, cfg)
    return ruled[i]


def _without_ruling(
    crop: NDArray[np.float32], cl: Cluster, gray: NDArray[np.uint8], cfg: MarksSettings
) -> NDArray[np.float32] | None:
    """``crop`` (of cluster ``cl``) without the printed ruling lines through it (see
    :func:`_ruling_darkness`; ``gray``: in the clusters' frame), or None when none of its
    pixels lies on one (the same crop, the same reading)."""
    return _cleaned_views(crop, cl, gray, cfg, (False,))[0]


def _cleaned_views(
    crop: NDArray[np.float32],
    cl: Cluster,
    gray: NDArray[np.uint8],
    cfg: MarksSettings,
    kinds: tuple[bool, ...],
) -> list[NDArray[np.float32] | None]:
    """:func:`_without_ruling` of ``crop`` once per kind of ruling search in ``kinds``
    (see :func:`_ruling_lines`; the paper's level and the window's measures taken once)."""
    if not kinds or cl.top <= 0:
        return [None] * len(kinds)
    h, w = crop.shape
    ox, oy = cl.origin
    win = gray[oy : oy + h, ox : ox + w]
    if win.shape != crop.shape:
        return [None] * len(kinds)
    text_h = cl.text_h
    k = _background_side(text_h, cfg)
    dark = _paper_minus_gray(win, k)
    views: list[NDArray[np.float32] | None] = []
    for lines in _ruling_lines(dark, cl.crop_box, cl.top, text_h, cfg, 0.5, kinds):
        if lines is None:
            views.append(None)
            continue
        # Pixels on a line no darker than the line (times ``ruling_keep``) are the line;
        # a pen stroke crossing it is darker and kept.
        on_line = (crop * cl.top <= cfg.ruling_keep * lines) & (crop > 0)
        views.append(np.where(on_line, 0.0, crop).astype(np.float32) if on_line.any() else None)
    return views


def _background_side(text_h: float, cfg: MarksSettings) -> int:
    """The side (odd, at least 3 pixels) of the square :func:`_paper_minus_gray` takes the
    paper's level in, for writing ``text_h`` pixels high (``background_kernel``)."""
    return max(3, int(round(cfg.background_kernel * text_h)) | 1)


def _paper_minus_gray(gray: NDArray[Any], k: int) -> NDArray[np.float32]:
    """How much darker than the paper each pixel of ``gray`` is: the brightest grey
    within a ``k`` x ``k`` square (the paper's level) minus the pixel's own, float32.

    On 8-bit grey the maximum and the difference are taken in 8 bits (exact: the
    square holds the pixel, so the difference is never negative) and converted once:
    the same numbers as in float32, several times faster.
    """
    kernel = np.ones((k, k), np.uint8)
    if gray.dtype == np.uint8:
        paper8 = cv2.dilate(gray, kernel)
        return np.subtract(paper8, gray).astype(np.float32)
    g = gray.astype(np.float32)
    return np.asarray(np.clip(cv2.dilate(g, kernel) - g, 0, None), np.float32)


def _percentile90(x: NDArray[np.float32]) -> float:
    """``np.percentile(x, 90)`` (linear interpolation, the same rounding) by a partial
    sort of the two order statistics it needs instead of numpy's general path."""
    n = x.size
    pos = 0.9 * (n - 1)
    lo = int(np.floor(pos))
    hi = min(lo + 1, n - 1)
    part = np.partition(x, [lo, hi]) if hi != lo else np.partition(x, lo)
    a, b = part[lo], part[hi]
    t = pos - lo
    d = b - a
    # (numpy's lerp: from the nearer end, so that t = 1 gives b exactly.)
    return float(b - d * (1 - t)) if t >= 0.5 else float(a + d * t)


def _column_splits(
    comps: tuple[int, ...], stats: NDArray[np.int32], max_splits: int
) -> list[tuple[list[int], list[int]]]:
    """Ways to cut a cluster into a left and a right part between its columns of ink.

    Components whose horizontal extents overlap form one column (a digit with its
    detached bar, a number with its underline); the cuts are tried at the widest gaps
    between columns, at most ``max_splits`` of them.
    """
    if len(comps) < 2 or max_splits <= 0:
        return []
    order = sorted(comps, key=lambda c: stats[c][0])
    columns: list[list[int]] = [[order[0]]]
    right = stats[order[0]][0] + stats[order[0]][2]
    gaps: list[int] = []
    for c in order[1:]:
        x, w = stats[c][0], stats[c][2]
        if x < right:
            columns[-1].append(c)
        else:
            gaps.append(int(x - right))
            columns.append([c])
        right = max(right, x + w)
    cuts = sorted(range(len(gaps)), key=lambda g: -gaps[g])[:max_splits]
    out = []
    for g in sorted(cuts):
        left = [c for col in columns[: g + 1] for c in col]
        rest = [c for col in columns[g + 1 :] for c in col]
        out.append((left, rest))
    return out


def _row_splits(
    comps: tuple[int, ...],
    stats: NDArray[np.int32],
    min_height: float,
    overlap: float,
    small: float | None = None,
) -> list[tuple[list[int], list[int]]]:
    """The cut of a cluster into a top and a bottom part at its widest gap between rows
    of ink, when both parts hold a piece at least ``min_height`` pixels tall, or one
    such and the other a piece at least ``small`` pixels tall that is not flat (not
    twice as wide as high); none else.

    Pieces whose vertical extents overlap by at least ``overlap`` of the shorter one's
    height form one row (the gap may be negative: rows that overlap a little).
    """
    if len(comps) < 2:
        return []
    least = min_height if small is None else min(small, min_height)

    def tall(part: list[int], height: float) -> bool:
        return any(stats[c][3] >= height and stats[c][2] < 2 * stats[c][3] for c in part)

    order = sorted(comps, key=lambda c: stats[c][1])
    rows: list[list[int]] = [[order[0]]]
    bottom = stats[order[0]][1] + stats[order[0]][3]
    gaps: list[int] = []
    for c in order[1:]:
        y, h = stats[c][1], stats[c][3]
        shorter = min(h, max(stats[r][3] for r in rows[-1]))
        if bottom - y >= overlap * shorter:
            rows[-1].append(c)
        else:
            gaps.append(int(y - bottom))
            rows.append([c])
        bottom = max(bottom, y + h)
    best: tuple[int, int] | None = None
    for g, gap in enumerate(gaps):
        top = [c for row in rows[: g + 1] for c in row]
        low = [c for row in rows[g + 1 :] for c in row]
        high = [any(stats[c][3] >= min_height for c in part) for part in (top, low)]
        # (A smaller letter above or below a number is as much a row as a tall one.)
        both = all(high) or (high[0] and tall(low, least)) or (high[1] and tall(top, least))
        if both and (best is None or gap > best[1]):
            best = (g, gap)
    if best is None:
        return []
    g = best[0]
    return [([c for row in rows[: g + 1] for c in row], [c for row in rows[g + 1 :] for c in row])]


#: Largest (components x labels) table of pixel counts built densely (32 MB of int64);
#: beyond it the counts are sorted out sparsely.
_DENSE_COUNTS = 4_000_000


def _component_regions(
    cc: NDArray[np.int32],
    n: int,
    stats: NDArray[np.int32],
    labels: NDArray[np.int32],
    wanted: NDArray[np.bool_],
    reach: int,
) -> NDArray[np.int32]:
    """The region of each writing component: the label most of its labelled pixels carry.

    A ``wanted`` component none of whose pixels carries a label (the region stage left
    it out of every country) borrows the commonest label within ``reach`` pixels of it.
    """
    comp_region = np.zeros(n, np.int32)
    flat_cc = cc.ravel()
    flat_lab = labels.ravel()
    sel = (flat_cc > 0) & (flat_lab > 0)
    if np.any(sel):
        base = int(flat_lab.max()) + 1
        pairs = flat_cc[sel].astype(np.int64) * base + flat_lab[sel]
        if n * base <= _DENSE_COUNTS:
            counts = np.bincount(pairs, minlength=n * base).reshape(n, base)
            # The majority label of each component (of equal counts, the highest label).
            top = base - 1 - np.argmax(counts[:, ::-1], axis=1)
            comp_region = np.where(counts.max(axis=1) > 0, top, 0).astype(np.int32)
        else:
            uniq, count = np.unique(pairs, return_counts=True)
            # Sorted by count, the last pair of each component is its majority label.
            order = np.argsort(count, kind="stable")
            comp_region[uniq[order] // base] = uniq[order] % base
    hh, ww = labels.shape
    for i in np.nonzero((comp_region == 0) & wanted)[0]:
        if i == 0:
            continue
        x, y, w, h, _ = stats[i]
        x0, y0 = max(0, x - reach), max(0, y - reach)
        x1, y1 = min(ww, x + w + reach), min(hh, y + h + reach)
        kernel = np.ones((2 * reach + 1,) * 2, np.uint8)
        near = cv2.dilate((cc[y0:y1, x0:x1] == i).astype(np.uint8), kernel)
        lab = labels[y0:y1, x0:x1][(near > 0) & (labels[y0:y1, x0:x1] > 0)]
        if lab.size:
            comp_region[i] = int(np.bincount(lab).argmax())
    return comp_region


def _drop_ruling_residue(
    keep: list[int],
    cc: NDArray[np.int32],
    stats: NDArray[np.int32],
    line_width: float,
    cfg: MarksSettings,
) -> list[int]:
    """Leave out the components that are crossings of the paper's printed ruling.

    Where two printed lines of squared paper cross, the ruling removal of the region
    stage may leave a small "+" of two short straight bars. Its bars are exactly
    parallel to the page's sides (the working image is the rectified page, turned by a
    multiple of 90 degrees), which handwriting never is over a whole component, and a
    "+" is no character of the vocabulary (read, it comes out as a crossed-out "1").
    """
    out = []
    for i in keep:
        x, y, w, h, _ = stats[i]
        if max(w, h) > cfg.residue_max_size * line_width:
            out.append(i)
            continue
        m = (cc[y : y + h, x : x + w] == i).astype(np.uint8)
        if _straight_shape(m, cfg.residue_bar_length, cfg.residue_coverage) != "cross":
            out.append(i)
    return out


#: :func:`_off_ruling` looks for printed lines in a band this many pixels across (a line
#: a few degrees off the page's rows runs straight in a band a few pixels high; a
#: skeleton-scale tolerance, like the region stage's ``RULING_REACH_PX``).
_RULING_BAND_PX = 3


def _off_ruling(
    low: NDArray[np.bool_],
    lowish: NDArray[np.bool_],
    text_h: float,
    lw: float,
    cfg: MarksSettings,
) -> NDArray[np.bool_]:
    """``low`` without printed ruling: rows (columns) of the light ink ``lowish`` at
    least ``light_line`` writing heights long, a line width or so thick, straight along
    the page's sides; where writing crosses a line, the line's width across the
    writing's strokes is kept (the strokes on either side stay one piece)."""
    m = lowish.view(np.uint8)
    n = max(3, int(round(cfg.light_line * text_h)))
    t = 2 * max(1, int(round(lw))) + 1
    band = _RULING_BAND_PX  # (a line a few degrees off the rows, see there)
    rows = cv2.morphologyEx(
        cv2.dilate(m, np.ones((band, 1), np.uint8)), cv2.MORPH_OPEN, np.ones((1, n), np.uint8)
    )
    cols = cv2.morphologyEx(
        cv2.dilate(m, np.ones((1, band), np.uint8)), cv2.MORPH_OPEN, np.ones((n, 1), np.uint8)
    )
    rows &= m
    cols &= m
    if not rows.any() and not cols.any():
        return low
    rest = (low & (rows == 0) & (cols == 0)).view(np.uint8)
    across = cv2.morphologyEx(rest, cv2.MORPH_CLOSE, np.ones((t, 1), np.uint8)) & rows
    along = cv2.morphologyEx(rest, cv2.MORPH_CLOSE, np.ones((1, t), np.uint8)) & cols
    return np.asarray((rest | across | along) > 0) & low


def _ruling_piece(
    piece: NDArray[np.bool_],
    origin: tuple[int, int],
    low: NDArray[np.bool_],
    text_h: float,
    cfg: MarksSettings,
) -> bool:
    """Whether a piece of light ink is printed ruling: made of straight bars parallel to
    the page's sides (at least ``residue_coverage`` of its pixels on bars that run
    across ``light_bar_span`` of its box) one of which goes on beyond the piece's box
    (``low``: the light ink around it, ``origin``: the box's corner in it) over at least
    half of a writing height on either side. Handwriting stops where it ends."""
    m = piece.astype(np.uint8)
    h, w = m.shape
    span = cfg.light_bar_span
    horiz = np.asarray(
        cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((1, max(3, round(span * w))), np.uint8)),
        np.uint8,
    )
    vert = np.asarray(
        cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((max(3, round(span * h)), 1), np.uint8)),
        np.uint8,
    )
    on = int(np.count_nonzero(m))
    if not on or np.count_nonzero((horiz | vert) & m) < cfg.residue_coverage * on:
        return False
    x, y = origin
    hh, ww = low.shape
    reach = max(3, int(round(text_h)))
    for r in np.flatnonzero(horiz.any(axis=1)):
        band = low[max(0, y + r - 1) : y + r + 2]
        sides = [band[:, max(0, x - reach) : x], band[:, x + w : min(ww, x + w + reach)]]
        if any(sd.shape[1] and sd.any(axis=0).mean() >= 0.5 for sd in sides):
            return True
    for c in np.flatnonzero(vert.any(axis=0)):
        band = low[:, max(0, x + c - 1) : x + c + 2]
        sides = [band[max(0, y - reach) : y], band[y + h : min(hh, y + h + reach)]]
        if any(sd.shape[0] and sd.any(axis=1).mean() >= 0.5 for sd in sides):
            return True
    return False


def _darker_than_beside(
    piece: NDArray[np.bool_],
    origin: tuple[int, int],
    low: NDArray[np.bool_],
    dark: NDArray[np.float32],
    text_h: float,
    ratio: float,
) -> bool:
    """Whether a light ``piece`` (its box's corner ``origin`` in the window) is at least
    ``ratio`` times as dark (medians of ``dark``) as the light ink ``low`` beside it in
    the rows of its box, within ``text_h`` (at least 3 pixels) on either side; True
    when there is none there."""
    x, y = origin
    h, w = piece.shape
    reach = max(3, int(round(text_h)))
    rows = np.s_[y : y + h]
    beside = np.concatenate(
        (
            dark[rows, max(0, x - reach) : x][low[rows, max(0, x - reach) : x]],
            dark[rows, x + w : x + w + reach][low[rows, x + w : x + w + reach]],
        )
    )
    if beside.size == 0:
        return True
    inside = dark[y : y + h, x : x + w][piece]
    return float(np.median(inside)) >= ratio * float(np.median(beside))


def _straight_shape(m: NDArray[np.uint8], length: float, coverage: float) -> str:
    """ "cross", "bar" or "" for a component mask made of axis-parallel straight bars or not."""
    h, w = m.shape
    # One length for both directions, from the longer side: a flat bar has no vertical part.
    k = max(3, round(length * max(h, w)))
    horiz = np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((1, k), np.uint8)), np.uint8)
    vert = np.asarray(cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((k, 1), np.uint8)), np.uint8)
    on = int(np.count_nonzero(m))
    if not on or np.count_nonzero((horiz | vert) & m) < coverage * on:
        return ""
    rows = np.nonzero(horiz.any(axis=1))[0]
    cols = np.nonzero(vert.any(axis=0))[0]
    if rows.size and cols.size:
        # Two thin bars (each a few rows / columns of the box, not a blob or a thick
        # stroke) crossing inside the box (not an L or T of a border corner).
        thin = rows.size <= 0.35 * h and cols.size <= 0.35 * w
        mid_r = np.any((rows > 0.2 * h) & (rows < 0.8 * h))
        mid_c = np.any((cols > 0.2 * w) & (cols < 0.8 * w))
        return "cross" if thin and mid_r and mid_c else ""
    return "bar" if max(h, w) >= 3 * min(h, w) else ""


def is_rectified(seg: Segmentation) -> bool:
    """Whether the working image is a rectified sheet (its homography is more than a scaling)."""
    m = np.asarray(seg.to_photo, float)
    m = m / m[2, 2]
    return bool(abs(m[0, 1]) + abs(m[1, 0]) + abs(m[2, 0]) + abs(m[2, 1]) > 1e-9)


def looks_labelled(crops: list[tuple[NDArray[np.float32], int]], fraction: float) -> bool:
    """Whether a page seems to name its countries with letters (see ``labelled_page_fraction``).

    Parameters
    ----------
    crops : list of (ink crop, region index)
        The page's whole clusters of writing.
    fraction : float
        Share of the countries with writing that must hold two clusters of writing height.
    """
    heights = [_ink_height(c) for c, _ in crops]
    if not heights:
        return False
    tall = 0.6 * float(np.median(heights))
    per_region: dict[int, int] = {}
    for (_, region), h in zip(crops, heights, strict=True):
        per_region[region] = per_region.get(region, 0) + (h >= tall)
    with_writing = [n for n in per_region.values() if n > 0]
    two = sum(n >= 2 for n in with_writing)
    return bool(with_writing) and two >= fraction * len(with_writing)


def turn_matrix(
    shape: tuple[int, ...], angle: float
) -> tuple[NDArray[np.float64], tuple[int, int]]:
    """Affine map turning an image of ``shape`` by ``angle`` degrees (counter-clockwise).

    Returns the (2, 3) matrix and the (width, height) of the grown canvas that holds
    the whole turned image, centred.
    """
    h, w = shape[:2]
    m = cv2.getRotationMatrix2D((w / 2, h / 2), angle % 360, 1.0)
    c, s_ = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = int(h * s_ + w * c) + 1, int(h * c + w * s_) + 1
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return np.asarray(m, np.float64), (nw, nh)


def rotate_segmentation(seg: Segmentation, angle: float) -> Segmentation:
    """The arrays :func:`extract_clusters` reads, turned by ``angle`` degrees (counter-clockwise).

    Only ``gray``, ``writing``, ``borders``, ``labels`` and ``line_width`` are meaningful
    in the result: its ``writing`` is all the ink :func:`extract_clusters` reads (the
    writing and the stray ink that is not border), ``ink`` the same array.
    Cluster boxes come out in the turned frame; regions, adjacency and the homography
    are those of ``seg``.
    """
    m, size = turn_matrix(seg.gray.shape, angle)
    return _warp_segmentation(seg, m, size)


def _rotate_window(
    window: Segmentation, origin: tuple[int, int], shape: tuple[int, ...], angle: float
) -> Segmentation:
    """:func:`rotate_segmentation` of the page of ``shape`` cut to ``window``.

    ``window`` holds the page's arrays from ``origin`` (x, y) on (see :func:`_map_window`).
    The pixels come out as those of the whole page turned (the same sampling), on the
    canvas of the window's turned box, whose corner is at even coordinates of the whole
    turned page (see :func:`_map_window` on the labelling order).
    """
    mw, size = _window_turn(origin, window.gray.shape, shape, angle)
    return _warp_segmentation(window, mw, size)


def _window_turn(
    origin: tuple[int, int], window: tuple[int, ...], page: tuple[int, ...], angle: float
) -> tuple[NDArray[np.float64], tuple[int, int]]:
    """The affine map (2, 3) turning the window of shape ``window`` at ``origin`` (x, y)
    of a page of shape ``page`` by ``angle`` degrees, onto the canvas of the window's
    turned box (its corner at even coordinates of the whole turned page), and that
    canvas' (width, height) (see :func:`_rotate_window`)."""
    m, (nw, nh) = turn_matrix(page, angle)
    rot, t = m[:, :2], m[:, 2]
    hh, ww = window[:2]
    ox, oy = origin
    corners = np.array([[ox, oy], [ox + ww, oy], [ox, oy + hh], [ox + ww, oy + hh]], float)
    q = corners @ rot.T + t
    dx, dy = (max(0, int(np.floor(v)) - 1) for v in q.min(axis=0))
    dx, dy = dx - dx % 2, dy - dy % 2
    ex = min(nw, int(np.ceil(q[:, 0].max())) + 2)
    ey = min(nh, int(np.ceil(q[:, 1].max())) + 2)
    mw = m.copy()
    mw[:, 2] = rot @ np.array([ox, oy], float) + t - np.array([dx, dy], float)
    return mw, (ex - dx, ey - dy)


def _warp_segmentation(
    seg: Segmentation, m: NDArray[np.float64], size: tuple[int, int]
) -> Segmentation:
    """The arrays of ``seg`` warped by the affine map ``m`` onto a canvas of ``size``."""

    def turn(a: NDArray[Any], border: float, interp: int = cv2.INTER_NEAREST) -> NDArray[Any]:
        # (A window of a larger image is not contiguous.)
        a = np.ascontiguousarray(a)
        return cv2.warpAffine(a, m, size, flags=interp, borderValue=border)

    # (Writing and borders in two bits of one image, one warp: nearest neighbour takes
    # every bit of a pixel from the same source pixel.)
    both = turn(_writing_union(seg).view(np.uint8) | (seg.borders.view(np.uint8) << 1), 0)
    writing = (both & 1) > 0
    if int(seg.labels.max(initial=0)) < 65536:
        labels = turn(seg.labels.astype(np.uint16), 0).astype(np.int32)
    else:
        labels = turn(seg.labels.astype(np.float32), 0).astype(np.int32)
    return Segmentation(
        image=seg.image,
        gray=turn(seg.gray, 255, cv2.INTER_LINEAR),
        ink=writing,
        borders=(both & 2) > 0,
        writing=writing,
        labels=labels,
        regions=seg.regions,
        adjacency=seg.adjacency,
        line_width=seg.line_width,
        to_photo=seg.to_photo,
        photo_size=seg.photo_size,
        ruled=seg.ruled,
    )


def _writing_union(seg: Segmentation) -> NDArray[np.bool_]:
    """All the ink :func:`extract_clusters` reads.

    The region stage's writing mask, plus any ink it left out of both the borders and
    the writing (small letters, detached underlines): better read and rejected by the
    recogniser than never seen. (May be ``seg.writing`` itself: not to be written to.)
    """
    if seg.ink is seg.writing:
        # (A turned page's: its writing is already the union, see
        # :func:`rotate_segmentation`.)
        return seg.writing
    return seg.writing | (seg.ink & ~seg.borders)


def rotate_ink(ink: NDArray[np.float32], angle: float) -> NDArray[np.float32]:
    """Rotate an ink image by ``angle`` degrees (counter-clockwise), canvas grown to fit."""
    a = angle % 360
    if a == 0:
        return ink
    if a in (90, 180, 270):
        return np.ascontiguousarray(np.rot90(ink, int(a // 90)))
    m, (nw, nh) = turn_matrix(ink.shape, a)
    out = cv2.warpAffine(ink, m, (nw, nh), flags=cv2.INTER_LINEAR, borderValue=0.0)
    return np.asarray(out, np.float32)


def ruling_axes(seg: Segmentation, cfg: MarksSettings) -> float | None:
    """The direction (degrees counter-clockwise, modulo 90) of the sheet's printed ruling
    (lines, squares) around the map, or None when too few of its lines are seen
    (``orientation_ruling_lines``).

    Thin dark lines of the grey off the drawing (the region stage's ink, writing and
    borders grown by a few pixels), at ``orientation_ruling_size`` pixels on the longer
    side: the ``orientation_ruling_share`` darkest of the paper's pixels after a black
    top-hat. The strongest straight lines (Hough) among them that agree within
    ``orientation_ruling_agree`` degrees (modulo 90) give the direction.
    """
    if cfg.orientation_ruling_lines <= 0:
        return None
    h, w = seg.gray.shape[:2]
    f = min(1.0, cfg.orientation_ruling_size / max(h, w))
    size = (max(1, round(w * f)), max(1, round(h * f)))
    small = cv2.resize(seg.gray, size, interpolation=cv2.INTER_AREA)
    # (Each mask sampled, then joined: cheaper than joining them at full size.)
    drawn = np.zeros((size[1], size[0]), np.uint8)
    for mask in (seg.ink, seg.borders, seg.writing):
        drawn |= cv2.resize(mask.view(np.uint8), size, interpolation=cv2.INTER_NEAREST)
    drawn = cv2.dilate(drawn, np.ones((5, 5), np.uint8))
    thin = cv2.morphologyEx(small, cv2.MORPH_BLACKHAT, np.ones((5, 5), np.uint8))
    thin[drawn > 0] = 0
    if thin.size < 1 << 24:
        # (OpenCV's histogram: the same counts, exact in its float32 below 2**24.)
        counts = cv2.calcHist([thin], [0], None, [256], [0, 256]).ravel().astype(np.int64)
    else:
        counts = np.bincount(thin.ravel(), minlength=256)
    counts[0] -= np.count_nonzero(drawn)  # (the drawing's pixels are not paper)
    total = int(counts.sum())
    if total <= 0:
        return None
    level = int(np.searchsorted(np.cumsum(counts), (1.0 - cfg.orientation_ruling_share) * total))
    level = max(level, round(cfg.orientation_ruling_contrast))
    lines = (thin > level).view(np.uint8)
    votes = max(20, round(cfg.orientation_ruling_length * min(size)))
    found = cv2.HoughLines(lines, 1, np.pi / 180, votes)
    if found is None or len(found) == 0:
        return None
    # (Hough's angle is the lines' normal's, in the same sense as the rotation's.)
    theta = np.degrees(found[: cfg.orientation_ruling_longest, 0, 1].astype(np.float64)) % 90.0
    # Each line's differences to the others (modulo 90): the line with the most others
    # within the agreement, and their median direction.
    d = (theta[None, :] - theta[:, None] + 45.0) % 90.0 - 45.0
    near = np.abs(d) <= cfg.orientation_ruling_agree
    agreeing = near.sum(axis=1)
    k = int(np.argmax(agreeing))
    if int(agreeing[k]) < cfg.orientation_ruling_lines:
        return None
    return float((theta[k] + np.median(d[k][near[k]])) % 90.0)


def margin_turn(seg: Segmentation, cfg: MarksSettings) -> float | None:
    """The rotation (degrees, counter-clockwise) that puts the sheet's red margin line on
    the writing's left, or None when no such line is seen.

    Lined and Seyes paper print a red line down the sheet's left side, and writing runs
    from it. A margin is a straight line of pixels ``margin_redness`` grey levels redder
    (red less the mean of green and blue) than their surroundings, with at least
    ``margin_votes`` of the working image's shorter side in Hough votes, that covers at
    least ``margin_cover`` of its length across the image, has paper alike on both
    sides (grey within ``margin_paper_grey``: not the sheet's edge against a table) and
    at most ``margin_border_share`` of its red pixels on the region stage's borders (not
    a border drawn in red). The map lies on one side of it: the writing's left is the
    other.
    """
    if cfg.margin_votes <= 0:
        return None
    image = seg.image.astype(np.int16)
    red = image[..., 2] - (image[..., 1] + image[..., 0]) // 2
    around = cv2.blur(red.astype(np.float32), (cfg.margin_window, cfg.margin_window))
    mask = ((red - around) > cfg.margin_redness).view(np.uint8)
    h, w = mask.shape
    found = cv2.HoughLines(mask, 1, np.pi / 360, max(20, round(cfg.margin_votes * min(h, w))))
    if found is None or len(found) == 0:
        return None
    ys, xs = np.nonzero(mask)
    gray = seg.gray[::3, ::3].astype(np.float32)
    gy, gx = np.mgrid[0:h:3, 0:w:3]
    coarse = mask[::3, ::3]
    edge = cfg.margin_edge * min(h, w)
    near, far = cfg.margin_sides
    best: tuple[float, NDArray[np.float64], float] | None = None
    for rho, theta in found[: cfg.margin_lines, 0].astype(np.float64):
        n = np.array([np.cos(theta), np.sin(theta)])
        t = np.array([-n[1], n[0]])
        # (Not the image's own edge.)
        if abs(n[0]) > 0.9 and min(abs(rho / n[0]), abs(w - rho / n[0])) < edge:
            continue
        if abs(n[1]) > 0.9 and min(abs(rho / n[1]), abs(h - rho / n[1])) < edge:
            continue
        on = np.abs(xs * n[0] + ys * n[1] - rho) < 2.5
        if not on.any():
            continue
        # Paper on both sides, alike and not red.
        off = gx * n[0] + gy * n[1] - rho
        one, other = (off > near) & (off < far), (off < -near) & (off > -far)
        if one.sum() < 50 or other.sum() < 50:
            continue
        if (
            abs(float(gray[one].mean()) - float(gray[other].mean())) > cfg.margin_paper_grey
            or coarse[one].mean() > cfg.margin_side_red
            or coarse[other].mean() > cfg.margin_side_red
        ):
            continue
        if float(seg.borders[ys[on], xs[on]].mean()) > cfg.margin_border_share:
            continue
        along = xs[on] * t[0] + ys[on] * t[1]
        lo = float(min(0.0, t[0] * w, t[1] * h, t[0] * w + t[1] * h))
        extent = abs(t[0]) * w + abs(t[1]) * h
        cover = len(np.unique(((along - lo) // 4).astype(np.int64))) * 4 / extent
        if cover >= cfg.margin_cover and (best is None or cover > best[0]):
            best = (cover, n, float(rho))
    if best is None:
        return None
    _, n, rho = best
    my, mx = np.nonzero(seg.labels > 0)
    if len(mx) == 0:
        return None
    # (From the map towards the line: the writing's left.)
    left = n if float(np.mean(mx * n[0] + my * n[1])) < rho else -n
    return float((180.0 - np.degrees(np.arctan2(-left[1], left[0]))) % 360.0)


def writing_orientation(
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    *,
    rectified: bool,
    settings: MarksSettings | None = None,
    bars: list[float] | None = None,
    upright: dict[int, tuple[NDArray[np.float32], float, float]] | None = None,
    on_borders: list[float] | None = None,
    bar_crops: list[NDArray[np.float32]] | None = None,
    axes: float | None = None,
    margin: float | None = None,
) -> float:
    """The rotation (degrees, counter-clockwise) that makes the page's writing upright.

    ``bars``: the rotations that turn each underline found by the cluster grouping
    below its number (``Cluster.bar_up``); they add to the network's vote.
    ``bar_crops``: the crops of the clusters of ``bars``, in the same order; when given,
    only the bars whose cluster the network reads as underlined at its bar's rotation
    vote (``bar_read_underlined``).
    ``upright``: when given, filled with the network's output (log probabilities,
    underlined, crossed) for each voter read unturned, by ``id`` of its crop: the
    reading of an upright page need not run them again (:func:`read_clusters`).
    ``on_borders``: the share of each crop's ink along the region stage's borders
    (:func:`_on_borders`); crops that lie along them do not vote when enough others do.
    ``axes``: the direction (degrees, modulo 90) of the sheet's printed ruling
    (:func:`ruling_axes`) on a page that was not rectified: the writing runs along it,
    and a refined choice far from all its quarter turns (``orientation_ruling_far``)
    is made again among those.

    Everything written on one sheet shares its orientation, but the sheet may lie any
    way round in the photo (and a rectified sheet may be turned by a multiple of 90
    degrees). The largest clusters are read at each trial rotation; the rotation under
    which they are best explained as text (numbers or letters, not "nothing") wins.
    """
    cfg = settings or MarksSettings()
    if not crops:
        return 0.0
    if bars and bar_crops is not None and cfg.bar_read_underlined:
        bars = _underlined_bars(bars, bar_crops, net, cfg)
    # Voters: clusters of typical height (a shadow blob or a long stroke is no text),
    # the writing's height as the clusters that are not bars have it. Stubs and
    # fragments of border read as a 1 at whichever angle stands them upright: those
    # along the borders are left out when enough others remain.
    heights = np.array([_ink_height(c) for c in crops], float)
    kept = list(range(len(crops)))
    if on_borders is not None:
        off = [i for i in kept if on_borders[i] < cfg.orientation_border_share]
        if len(off) >= cfg.orientation_min_voters:
            kept = off
    elongation = [_elongation(c) for c in crops]
    shaped = [i for i in kept if elongation[i] < cfg.orientation_bar_elongation]
    typical = float(np.median(heights[shaped or kept]))
    ok = [i for i in kept if 0.5 * typical <= heights[i] <= 2.0 * typical]
    ok.sort(key=lambda i: -heights[i])
    wide = cfg.orientation_clusters + cfg.orientation_more_clusters
    chosen = ok[:wide] or list(range(len(crops)))[: cfg.orientation_clusters]
    chosen = _spread(chosen, cfg.orientation_clusters, cfg.orientation_spread)
    voters = [crops[i] for i in chosen]
    prior = cfg.orientation_prior
    scorer = _AngleScorer(
        voters,
        net,
        bars or [],
        cfg.bar_vote,
        cfg.bar_vote_width,
        cfg.orientation_floor,
        upright,
        cfg.underline_vote,
        cfg.orientation_clusters,
        cfg.mark_threshold,
        cfg.orientation_label_letters,
        cfg.orientation_label_share,
    )
    penalty = cfg.orientation_letter_penalty
    panel = min(len(voters), cfg.orientation_clusters)
    shaped_voters = [
        v for v, i in enumerate(chosen) if elongation[i] < cfg.orientation_quarter_elongation
    ]

    def choose(trials: list[float]) -> float:
        """The race between ``trials``, then the half-turn and quarter-turn checks."""
        rounds = cfg.orientation_rounds or (panel,)
        n_voters = 0
        for i, size in enumerate(rounds):
            n_voters = min(panel, n_voters + size)
            score = scorer.score(trials, prior, n_voters=n_voters, letter_penalty=penalty)
            drop = cfg.orientation_drop[min(i, len(cfg.orientation_drop) - 1)]
            # (The leader's half turn stays in the race to its end: the few voters of
            # the first rounds do not decide between two readings that 6/9, 1, 8, 0 and
            # symmetric letters give alike.)
            lead = trials[int(np.argmax(score))]
            trials = [
                a
                for a, s_ in zip(trials, score, strict=True)
                if s_ >= score.max() - drop
                or (cfg.orientation_keep_half and abs((a - lead) % 360.0 - 180.0) < 1e-6)
            ]
            if len(trials) == 1 or n_voters >= panel:
                break
        best = scorer.best(trials, prior, n_voters=n_voters, letter_penalty=penalty)
        far = [a for a in trials if _turn_apart(a, best) > cfg.orientation_far]
        if far and len(voters) > n_voters:
            # A close race between different readings: more voters decide it (between the
            # best and the far ones; its neighbours are the refinements' business).
            best = scorer.best([best, *far], prior, n_voters=len(voters), letter_penalty=penalty)
        if cfg.orientation_flip_votes:
            # The half turn, voter by voter: the mean can go to a few voters' confident
            # misreadings (letters upside down read as digits, crossed-out numbers floored
            # either way) against most of the page.
            half = (best + 180.0) % 360.0
            both = scorer.scores([best, half], len(voters), penalty)
            gain = both[1] - both[0]
            net = _net_votes(gain, cfg.orientation_flip_nats)
            # (On a page that was not rectified, nor against the voters' mean: the
            # race's angle is a step's guess, maybe far enough off the writing that
            # most voters read poorly there and small gains for the half turn add up
            # to a vote; the mean says how much better the page reads.)
            mean_ok = rectified or not cfg.orientation_flip_mean or float(np.mean(gain)) > 0.0
            if net >= cfg.orientation_flip_votes and float(np.median(gain)) > 0.0 and mean_ok:
                best = half
        if cfg.orientation_quarter_votes:
            best = _quarter_turn(scorer, best, shaped_voters, penalty, cfg)
        return best

    # Any angle is possible on a page that was not rectified, quarter turns on one that
    # was. The voters join in rounds; the angles that fall behind are dropped.
    if rectified:
        trials = [0.0, 90.0, 180.0, 270.0]
    else:
        trials = [float(a) for a in np.arange(0.0, 360.0, cfg.orientation_step)]
    best = choose(trials)
    if margin is not None and _turn_apart(best, margin) > cfg.orientation_margin_far:
        # The writing runs from the sheet's margin: the voters' choice puts it elsewhere.
        # The margin's turn is taken unless the voters read it clearly worse.
        turn = float(round(margin / 90.0) * 90.0 % 360.0) if rectified else margin
        both = scorer.scores([best, turn], len(voters), penalty)
        gain = both[1] - both[0]
        if (
            float(np.mean(gain)) >= -cfg.orientation_margin_nats
            and _net_votes(gain, cfg.orientation_flip_nats) >= -cfg.orientation_margin_votes
        ):
            best = turn
    if rectified:
        return float(best)
    # A bar (a 1, a stub) reads best at its own slant, not the page's: the refinements
    # are left to the other voters when there are any.
    fine = [
        v
        for v, i in enumerate(chosen[: cfg.orientation_clusters])
        if elongation[i] < cfg.orientation_refine_elongation
    ]
    fine = fine[: cfg.orientation_refine_clusters] or None
    for step in cfg.orientation_refine:
        best = scorer.best(
            [best - step, best, best + step],
            0.0,
            reduce=np.median,
            n_voters=cfg.orientation_refine_clusters,
            only=fine,
        )
    if axes is not None:
        # The writing runs along the sheet's printed lines: far from all their quarter
        # turns, the voters' choice is in doubt, and they choose again between those.
        turns = [(axes + q) % 360.0 for q in (0.0, 90.0, 180.0, 270.0)]
        if min(_turn_apart(a, best) for a in turns) > cfg.orientation_ruling_far:
            best = choose(turns)
    return float(best % 360)


def _turn_apart(a: float, b: float) -> float:
    """Degrees between two rotations (0-180)."""
    return abs((a - b + 180.0) % 360.0 - 180.0)


def _net_votes(gain: NDArray[np.floating], sure: float) -> int:
    """How many more voters read another angle better than worse by over ``sure`` nats
    (``gain``: each voter's reading there minus here)."""
    return int((gain > sure).sum() - (gain < -sure).sum())


def _spread(chosen: list[int], panel: int, every: int) -> list[int]:
    """``chosen``'s first ``panel`` reordered to join the race every ``every`` (the 1st,
    1+every-th, ...; then the 2nd, 2+every-th, ...), the rest after them unchanged."""
    head = chosen[:panel]
    if every <= 1:
        return list(chosen)
    return [head[j] for r in range(every) for j in range(r, len(head), every)] + chosen[panel:]


def _quarter_turn(
    scorer: _AngleScorer,
    best: float,
    shaped: list[int],
    penalty: float,
    cfg: MarksSettings,
) -> float:
    """``best`` or one of its quarter turns, voter by voter (``orientation_quarter_votes``).

    ``shaped``: the voters (indices of ``scorer``'s) that are not straight strokes.
    """
    if len(shaped) < cfg.orientation_quarter_votes:
        return best
    # (The winner's readings are known when the half-turn check ran: it read them.)
    here = scorer.scores([best], letter_penalty=penalty, only=shaped)[0]
    if float(np.mean(here)) >= cfg.orientation_quarter_doubt:
        return best
    turns = [(best + 90.0) % 360.0, (best + 270.0) % 360.0]
    there = scorer.scores(turns, letter_penalty=penalty, only=shaped)
    won: list[tuple[float, float]] = []
    for angle, row in zip(turns, there, strict=True):
        gain = row - here
        net = _net_votes(gain, cfg.orientation_flip_nats)
        if net >= cfg.orientation_quarter_votes and min(np.median(gain), np.mean(gain)) > 0.0:
            won.append((float(np.mean(gain)), angle))
    return max(won)[1] if won else best


def _underlined_bars(
    bars: list[float],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    cfg: MarksSettings,
) -> list[float]:
    """The rotations of ``bars`` whose cluster (crop of ``crops``) the network reads as
    underlined (probability over ``mark_threshold``) turned by that rotation."""
    views = [rotate_ink(c, a) for a, c in zip(bars, crops, strict=True)]
    under = _run_views(net, views).underlined > cfg.mark_threshold
    return [a for a, u in zip(bars, under.tolist(), strict=True) if u]


# A crop's pixels that make up its strokes (for their height, moments and pieces):
# darker than this (the crops run from 0, paper, to 1).
_STROKE_LEVEL = 0.3


def _ink_height(ink: NDArray[np.float32]) -> float:
    rows = np.nonzero(ink.max(axis=1) > _STROKE_LEVEL)[0]
    return float(rows[-1] - rows[0] + 1) if rows.size else 0.0


def _on_borders(ex: _Extraction, clusters: list[Cluster], cfg: MarksSettings) -> list[float]:
    """The share of each cluster's ink within ``orientation_border_reach`` line widths
    of the region stage's borders (its components' pixels, in the extraction's frame)."""
    if ex._page is None:
        return [0.0] * len(clusters)
    seg, cc = ex._page[0], ex._page[1]
    count = int(cc.max()) + 1
    r = max(1, round(cfg.orientation_border_reach * max(float(seg.line_width), 1.0)))
    disk = cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (2 * r + 1, 2 * r + 1))
    hh, ww = cc.shape
    out = []
    for cl in clusters:
        x0, y0, x1, y1 = cl.bbox
        own = _own_pixels(cc[y0:y1, x0:x1], cl.components, count)
        n = int(np.count_nonzero(own))
        if n == 0:
            out.append(0.0)
            continue
        # The borders around the box, grown by the reach.
        bx0, by0, bx1, by1 = max(0, x0 - r), max(0, y0 - r), min(ww, x1 + r), min(hh, y1 + r)
        near = cv2.dilate(seg.borders[by0:by1, bx0:bx1].view(np.uint8), disk)
        near = near[y0 - by0 : y1 - by0, x0 - bx0 : x1 - bx0] > 0
        out.append(float(np.count_nonzero(near & own)) / n)
    return out


def _own_pixels(sub: NDArray[np.int32], comps: Sequence[int], count: int) -> NDArray[np.bool_]:
    """The pixels of labels ``sub`` (``count`` labels in all) that are one of ``comps``."""
    if len(comps) <= 4:
        # (Most clusters are a few components: comparisons are cheaper than a lookup.)
        own = sub == comps[0]
        for c in comps[1:]:
            own |= sub == c
        return own
    # (A lookup table of the components: np.isin sorts the whole window.)
    lut = np.zeros(count, bool)
    lut[list(comps)] = True
    return lut[sub]


def _elongation(ink: NDArray[np.float32]) -> float:
    """How many times longer than wide the ink is (square root of the ratio of the
    second moments of its pixels darker than 0.3 along its main axes)."""
    return _moments_elongation(_ink_moments(ink))


def _ink_moments(ink: NDArray[np.float32]) -> dict[str, float]:
    """The image moments of the pixels of ``ink`` darker than ``_STROKE_LEVEL``."""
    return dict(cv2.moments((ink > _STROKE_LEVEL).view(np.uint8), binaryImage=True))


def _moments_elongation(m: dict[str, float]) -> float:
    """:func:`_elongation` from the moments ``m`` (:func:`_ink_moments`)."""
    if m["m00"] < 2:
        return 1.0
    a, b, c = m["mu20"], m["mu11"], m["mu02"]
    root = np.hypot(a - c, 2 * b)
    small = (a + c - root) / 2
    return float(np.sqrt((a + c + root) / 2 / max(small, 1e-3 * m["m00"])))


class _AngleScorer:
    """Per-voter text log-likelihoods at trial rotations, each read by the network once."""

    def __init__(
        self,
        voters: list[NDArray[np.float32]],
        net: digits.MarkNet,
        bars: list[float],
        bar_vote: float,
        bar_width: float,
        floor: float = -np.inf,
        upright: dict[int, tuple[NDArray[np.float32], float, float]] | None = None,
        underline_vote: float = 0.0,
        panel: int = 1,
        underline_threshold: float = 0.5,
        label_letters: int = 0,
        label_share: float = 1.0,
    ) -> None:
        self.voters = voters
        self.net = net
        self.upright = upright
        self.bars = np.asarray(bars, float)
        self.bar_vote = bar_vote
        self.bar_width = bar_width
        self.floor = floor
        self.underline_vote = underline_vote
        self.panel = panel
        self.underline_threshold = underline_threshold
        self.label_letters = label_letters
        self.label_share = label_share
        # (best number, best letter) log-likelihood per (angle, voter)
        self.cache: dict[tuple[float, int], tuple[float, float]] = {}
        # the best letter's index per (angle, voter)
        self.letter: dict[tuple[float, int], int] = {}
        # whether the network reads the voter as underlined, per (angle, voter)
        self.underlined: dict[tuple[float, int], bool] = {}
        self.vocab = digits.closed_vocabulary()[1:]

    def _which(self, n_voters: int | None, only: list[int] | None) -> list[int]:
        """The voters asked for: ``only`` these, or the first ``n_voters`` (all)."""
        if only is not None:
            return only
        return list(
            range(len(self.voters) if n_voters is None else min(n_voters, len(self.voters)))
        )

    def scores(
        self,
        angles: list[float],
        n_voters: int | None = None,
        letter_penalty: float = 0.0,
        only: list[int] | None = None,
    ) -> NDArray[np.float64]:
        """(len(angles), voters) best text log-likelihood of each voter at each angle.

        A letter reading counts ``letter_penalty`` nats less than a number reading.
        ``only``: these voters (indices), instead of the first ``n_voters``.
        """
        which = self._which(n_voters, only)
        nv = len(which)
        keys = [(round(float(a) % 360, 6), v) for a in angles for v in which]
        todo = [k for k in dict.fromkeys(keys) if k not in self.cache]
        if todo:
            x = np.stack([digits.to_input(rotate_ink(self.voters[v], a)) for a, v in todo])
            out = self.net.run(x)
            if self.upright is not None:
                for i, (a, v) in enumerate(todo):
                    if a == 0:
                        row = (out.logprobs[i], float(out.underlined[i]), float(out.crossed[i]))
                        self.upright[id(self.voters[v])] = row
            # (float32: twice as fast; a voter's score is floored far above where its
            # rounding shows.)
            ll = digits.ctc_log_likelihood(out.logprobs, self.vocab, dtype=np.float32)
            num = ll[:, : digits.MAX_ARMIES].max(axis=1)
            let = ll[:, digits.MAX_ARMIES :].max(axis=1)
            self.cache.update(zip(todo, zip(num.tolist(), let.tolist(), strict=True), strict=True))
            letter = ll[:, digits.MAX_ARMIES :].argmax(axis=1)
            self.letter.update(zip(todo, letter.tolist(), strict=True))
            under = out.underlined > self.underline_threshold
            self.underlined.update(zip(todo, under.tolist(), strict=True))
        both = np.array([self.cache[k] for k in keys]).reshape(len(angles), nv, 2)
        penalty = self._letter_penalty(keys, both, letter_penalty)
        best: NDArray[np.float64] = np.maximum(both[..., 0], both[..., 1] - penalty[:, None])
        return np.maximum(best, self.floor)

    def _letter_penalty(
        self, keys: list[tuple[float, int]], both: NDArray[np.float64], penalty: float
    ) -> NDArray[np.float64]:
        """The letter penalty at each angle of ``both`` ((angles, voters, number and
        letter log-likelihoods) of the (angle, voter) ``keys``): none where at least
        ``label_letters`` voters, and ``label_share`` of them, read as letters no other
        voter reads there (a labelled page the right way up)."""
        out = np.full(len(both), penalty, np.float64)
        if not penalty or not self.label_letters:
            return out
        nv = both.shape[1]
        for i, row in enumerate(both):
            ids = [
                self.letter[k]
                for k, (n, l_) in zip(keys[i * nv : (i + 1) * nv], row, strict=True)
                if l_ > n
            ]
            once = sum(ids.count(x) == 1 for x in ids)
            if once >= max(self.label_letters, self.label_share * nv):
                out[i] = 0.0
        return out

    def score(
        self,
        angles: list[float],
        prior: float,
        reduce: Callable[..., NDArray[np.float64]] = np.mean,
        n_voters: int | None = None,
        letter_penalty: float = 0.0,
        only: list[int] | None = None,
    ) -> NDArray[np.float64]:
        """How well the voters read as text at each of ``angles`` (higher is better)."""
        return self._score(angles, prior, reduce, n_voters, letter_penalty, only)

    def best(
        self,
        angles: list[float],
        prior: float,
        reduce: Callable[..., NDArray[np.float64]] = np.mean,
        n_voters: int | None = None,
        letter_penalty: float = 0.0,
        only: list[int] | None = None,
    ) -> float:
        """The angle of ``angles`` whose voters read best as text."""
        score = self._score(angles, prior, reduce, n_voters, letter_penalty, only)
        return float(angles[int(np.argmax(score))])

    def _score(
        self,
        angles: list[float],
        prior: float,
        reduce: Callable[..., NDArray[np.float64]],
        n_voters: int | None,
        letter_penalty: float,
        only: list[int] | None = None,
    ) -> NDArray[np.float64]:
        # The mean over the voters for the quarter turns: numbers that read the same both
        # ways up (61/19, 6/9, 8) carry no vote, the others decide. The median for small
        # refinements, where one odd blob should not pull the angle.
        score = reduce(self.scores(angles, n_voters, letter_penalty, only), axis=1)
        # The prior favours the upright reading (angle 0) when it is one of the trials.
        score = score + np.where(np.isclose(np.asarray(angles) % 360, 0.0), prior, 0.0)
        if prior and self.bars.size:
            # (Coarse choices only, those with a prior: underlines are drawn by hand and
            # the network refines better than their slant.)
            diff = (self.bars[None, :] - np.asarray(angles)[:, None] + 180.0) % 360.0 - 180.0
            near = (np.abs(diff) <= self.bar_width).sum(axis=1)
            score = score + self.bar_vote * near / max(3, self.bars.size)
        if prior and self.underline_vote:
            # (Coarse choices only, like the bars; the voters' own underlines.)
            which = self._which(n_voters, only)
            nv = len(which)
            keys = [(round(float(a) % 360, 6), v) for a in angles for v in which]
            under = np.array([self.underlined[k] for k in keys], float).reshape(len(angles), nv)
            # (Out of a full panel of voters: on a page of few voters one underline-like
            # stroke, such as a grid corner's side above a 3, does not turn the page.)
            panel = max(nv, self.panel)
            score = score + self.underline_vote * under.sum(axis=1) / panel
        return np.asarray(score, np.float64)


def read_clusters(
    crops: list[NDArray[np.float32]],
    clusters: list[Cluster],
    *,
    backend: str = "cnn",
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
    known: dict[int, tuple[NDArray[np.float32], float, float]] | None = None,
    logprobs: list[NDArray[np.float32]] | None = None,
    inputs: dict[int, NDArray[np.float32]] | None = None,
    likelihoods: list[NDArray[np.float64]] | None = None,
) -> list[ClusterReading]:
    """Read a batch of cluster crops (ink darkness images) in one network call.

    ``known``: network outputs already computed for some of the crops, by ``id`` of the
    crop (see :func:`writing_orientation`); the others are run. ``logprobs``: when
    given, receives the network's log probabilities of the batch (one array).
    ``inputs``: when given, receives the network inputs made of the crops run, by
    index of the crop (a second network reads some of them again). ``likelihoods``:
    when given, receives the log-likelihood of each text of the closed vocabulary
    (:func:`digits.closed_vocabulary`) for each crop (one (N, K) array).
    """
    cfg = settings or MarksSettings()
    if not crops:
        return []
    known = known or {}
    todo = [i for i, c in enumerate(crops) if id(c) not in known]
    made = {i: digits.to_input(crops[i]) for i in todo}
    if inputs is not None:
        inputs.update(made)
    if len(todo) == len(crops):
        out = (net or digits.load_net()).run(np.stack([made[i] for i in todo]))
    else:
        ran = (net or digits.load_net()).run(
            np.stack([made[i] for i in todo])
            if todo
            else np.zeros((0, digits.INPUT_H, digits.INPUT_W), np.float32)
        )
        rows = [known.get(id(c)) for c in crops]
        for j, i in enumerate(todo):
            rows[i] = (ran.logprobs[j], float(ran.underlined[j]), float(ran.crossed[j]))
        done = [r for r in rows if r is not None]
        out = digits.NetOutput(
            np.stack([r[0] for r in done]).astype(np.float32),
            np.array([r[1] for r in done], np.float32),
            np.array([r[2] for r in done], np.float32),
        )
    if logprobs is not None:
        logprobs.append(out.logprobs)
    texts, probs, alts, nums = _readings(
        out.logprobs, pairs=cfg.pair_vocabulary, likelihoods=likelihoods
    )
    if backend == "tesseract":
        from aggression_vision.vision import ocr

        texts = [ocr.read_text(c) for c in crops]
        probs = [0.9 if t else 0.5 for t in texts]
        alts = [("", 0.0)] * len(texts)
        nums = [("", 0.0)] * len(texts)
    return [
        ClusterReading(
            cl,
            t,
            float(p),
            float(u),
            float(c),
            alt_letter=a[0],
            letter_mass=a[1],
            softness=softness(crop, cfg),
            alt_number=n[0],
            number_mass=n[1],
        )
        for cl, t, p, u, c, a, n, crop in zip(
            clusters, texts, probs, out.underlined, out.crossed, alts, nums, crops, strict=True
        )
    ]


def _doubtful_numbers(
    readings: list[ClusterReading], text: Callable[[str], bool], below: float, cfg: MarksSettings
) -> list[int]:
    """Indices of the whole clusters of writing height whose reading's text passes
    ``text`` with a posterior below ``below``: the numbers worth reading again."""
    return [
        i
        for i, r in enumerate(readings)
        if r.cluster.split_of is None
        and text(r.text)
        and r.probability < below
        and r.cluster.height >= cfg.number_min_height
    ]


def _reread_turned(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    logprobs: NDArray[np.float32],
    net: digits.MarkNet,
    cfg: MarksSettings,
    more: Sequence[digits.MarkNet] | None = None,
    inputs: dict[int, NDArray[np.float32]] | None = None,
) -> list[ClusterReading]:
    """Read the doubtful numbers again turned by ``view_angles`` (those read crossed
    out also sheared by ``view_shears``) and take the text of the mean posterior over
    the views (see ``view_threshold``), read by ``net`` and by the networks of
    ``view_nets``.

    ``logprobs``: the network's outputs for ``crops`` (the unturned views). Only
    number readings are read again (a letter beside a number keeps its reading).
    ``more``: the other networks that read every view; those of ``view_nets`` when None.
    ``inputs``: network inputs already made of some crops, by index (see
    :func:`read_clusters`).
    """
    if not cfg.view_angles:
        return readings
    pick = _doubtful_numbers(readings, str.isdigit, cfg.view_threshold, cfg)
    if not cfg.view_light:
        pick = [i for i in pick if not readings[i].cluster.light]
    if not pick:
        return readings
    per = [_views(crops[i], readings[i].crossed >= cfg.view_shear_crossed, cfg) for i in pick]
    if more is None:
        more = [digits.load_named_net(name) for name in cfg.view_nets]
    # (Each view's input made once: the other networks read the same, own views too.)
    view_x = np.stack([digits.to_input(v) for vs in per for v in vs])
    out = net.run(view_x)
    vocab = digits.vocabulary()
    base = vocab[: 1 + digits.MAX_ARMIES + len(digits.LETTERS)]
    # Each pick's own view first, then its other views; then the same views, own ones
    # included, read by each other network.
    others = np.split(out.logprobs, np.cumsum([len(vs) for vs in per])[:-1])
    mine = [np.concatenate([logprobs[i][None], o]) for i, o in zip(pick, others, strict=True)]
    theirs: list[list[NDArray[np.float32]]] = []
    if more:
        # (Each pick's own crop, then its views: rows of the views' inputs followed by
        # the own crops'.)
        starts = np.cumsum([0] + [len(vs) for vs in per])
        n_views = int(starts[-1])
        order = [
            j for k in range(len(pick)) for j in (n_views + k, *range(starts[k], starts[k + 1]))
        ]
        every = np.concatenate([view_x, _picked_inputs(crops, pick, inputs)])[order]
        cuts = np.cumsum([1 + len(vs) for vs in per])[:-1]
        theirs = [np.split(m.run(every).logprobs, cuts) for m in more]
    rows = [x for k, m in enumerate(mine) for x in (m, *(t[k] for t in theirs))]
    ll = digits.ctc_log_likelihood(np.concatenate(rows), base)
    post = _posteriors(ll)
    groups = np.split(post, np.cumsum([(1 + len(vs)) * (1 + len(more)) for vs in per])[:-1])
    out_r = list(readings)
    for i, group in zip(pick, groups, strict=True):
        mean = group.mean(axis=0)
        k = int(np.argmax(mean))
        text = base[k]
        if text.isdigit() and text != readings[i].text:
            out_r[i] = replace(readings[i], text=text, probability=float(mean[k]))
    return out_r


def _views(
    crop: NDArray[np.float32], struck: bool, cfg: MarksSettings
) -> list[NDArray[np.float32]]:
    """The other views of a doubtful number's crop (see ``view_threshold``): turned by
    each of ``view_angles``, and sheared by each of ``view_shears`` when ``struck``."""
    views = [rotate_ink(crop, a) for a in cfg.view_angles]
    if struck:
        views += [shear_ink(crop, s) for s in cfg.view_shears]
    return views


def shear_ink(ink: NDArray[np.float32], shear: float) -> NDArray[np.float32]:
    """Shear an ink image across: row ``y`` moves by ``shear * (h - 1 - y)`` pixels (the
    top to the right for a positive ``shear``), canvas grown to fit."""
    h, w = ink.shape
    d = abs(shear) * (h - 1)
    pad = int(np.ceil(d))
    x0 = 0.0 if shear > 0 else d
    m = np.float32([[1.0, -shear, x0 + shear * (h - 1)], [0.0, 1.0, 0.0]])
    out = cv2.warpAffine(ink, m, (w + pad, h), flags=cv2.INTER_LINEAR, borderValue=0.0)
    return np.asarray(out, np.float32)


def _run_views(net: digits.MarkNet, views: list[NDArray[np.float32]]) -> digits.NetOutput:
    """The network's outputs for ``views`` (crops of ink darkness), in one batch."""
    return net.run(np.stack([digits.to_input(v) for v in views]))


def _reread_ones(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    cfg: MarksSettings,
) -> list[ClusterReading]:
    """Read the doubtful ones again stretched across (see ``ones_stretch``): those
    that then read "11" are "11", with that view's posterior."""
    if cfg.ones_stretch <= 1.0:
        return readings
    pick = _doubtful_numbers(readings, "1".__eq__, cfg.ones_stretch_below, cfg)
    if not pick:
        return readings
    views = [
        cv2.resize(crops[i], None, fx=cfg.ones_stretch, fy=1.0, interpolation=cv2.INTER_LINEAR)
        for i in pick
    ]
    out = _run_views(net, views)
    texts, probs, _, _ = _readings(out.logprobs, pairs=False)
    result = list(readings)
    for j, i in enumerate(pick):
        if texts[j] == "11":
            result[i] = replace(readings[i], text="11", probability=float(probs[j]))
    return result


def _doubled_ones(
    readings: list[ClusterReading], likelihoods: NDArray[np.float64], cfg: MarksSettings
) -> list[ClusterReading]:
    """The readings with the doubtful ones that are two (see ``ones_double_least``).
    ``likelihoods``: the first reading's log-likelihoods of the closed vocabulary, one
    row per reading."""
    if cfg.ones_double_least > 1.0:
        return readings
    base = digits.closed_vocabulary()
    one, two = base.index("1"), base.index("11")
    out = list(readings)
    for i, r in enumerate(readings):
        if (
            r.text != "1"
            or r.cluster.split_of is not None
            or r.probability >= cfg.ones_double_below
            or r.letter_mass >= cfg.ones_double_letter
            or r.cluster.height < cfg.number_min_height
            or i >= len(likelihoods)
        ):
            continue
        post = _posteriors(likelihoods[i : i + 1])[0]
        p = float(post[two])
        if p >= cfg.ones_double_least and post[one] > 0:
            out[i] = replace(r, text="11", probability=p)
    return out


def border_bar_view(
    crop: NDArray[np.float32],
    cl: Cluster,
    gray: NDArray[Any],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
) -> NDArray[np.float32] | None:
    """The crop of cluster ``cl`` with the border ink beside its box added back (see
    ``border_bar_reach``), or None when there is none or too much of it. ``gray`` and
    ``borders``: the page's (in the frame the cluster was cut in)."""
    if cl.top <= 0:
        return None
    ox, oy = cl.origin
    h, w = crop.shape
    win = np.s_[oy : oy + h, ox : ox + w]
    near = borders[win]
    if near.shape != crop.shape or not near.any():
        return None
    th = cl.text_h
    gx, gy = round(cfg.border_bar_reach * th), round(cfg.border_bar_rise * th)
    bx0, by0, bx1, by1 = cl.crop_box
    box = np.zeros_like(near)
    box[max(0, by0 - gy) : max(0, by1 + gy), max(0, bx0 - gx) : max(0, bx1 + gx)] = True
    add = near & box
    n_add = np.count_nonzero(add)
    n_ink = np.count_nonzero(crop > 0.1)
    if not cfg.border_bar_least * n_ink <= n_add <= cfg.border_bar_most * n_ink or not n_add:
        return None
    dark = _paper_minus_gray(gray[win], _background_side(th, cfg))
    view = crop.copy()
    view[add] = np.maximum(view[add], np.minimum(dark[add] / cl.top, 1.0))
    return view


def _border_bars(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    gray: NDArray[Any],
    borders: NDArray[np.bool_],
    net: digits.MarkNet,
    cfg: MarksSettings,
    likelihoods: NDArray[np.float64] | None = None,
) -> list[ClusterReading]:
    """The whole clusters read as a 1 or 7 that read as another digit with the border
    ink beside them added back (a 7's bar drawn along a border): see ``border_bar_reach``.
    ``gray``, ``borders``: the page's, in the clusters' frame. ``likelihoods``: the
    closed vocabulary's log-likelihoods of the crops (see :func:`read_clusters`): the
    rows of the numbers read again take the view's (:func:`hundred_armies` reads them)."""
    if cfg.border_bar_reach <= 0:
        return readings
    pick: list[int] = []
    views: list[NDArray[np.float32]] = []
    for i, r in enumerate(readings):
        one = len(r.text) == 1 and r.text in cfg.border_bar_digits
        if not one or r.cluster.split_of is not None or r.cluster.light:
            continue
        view = border_bar_view(crops[i], r.cluster, gray, borders, cfg)
        if view is not None:
            pick.append(i)
            views.append(view)
    if not pick:
        return readings
    view_ll: list[NDArray[np.float64]] = []
    texts, probs, _, _ = _readings(
        _run_views(net, views).logprobs, pairs=False, likelihoods=view_ll
    )
    out = list(readings)
    for j, (i, t, p) in enumerate(zip(pick, texts, probs, strict=True)):
        r = readings[i]
        other = len(t) == 1 and t.isdigit() and t != r.text
        if other and p >= cfg.border_bar_prob and p > r.probability:
            out[i] = replace(r, text=t, probability=float(p))
            if likelihoods is not None:
                likelihoods[i] = view_ll[0][j]
    return out


def border_underlines(
    readings: list[ClusterReading],
    borders: NDArray[np.bool_],
    cfg: MarksSettings,
) -> list[ClusterReading]:
    """``readings`` with the whole numbers not read as underlined that have a flat piece
    of border ink of their own just under them underlined (see
    ``MarksSettings.border_underline``). ``borders``: the page's border mask, in the
    clusters' frame."""
    if cfg.border_underline >= 1.0:
        return readings
    asked = [
        i for i, r in enumerate(readings) if r.whole_number and r.underlined <= cfg.mark_threshold
    ]
    if not asked or not borders.any():
        return readings
    _, labels, stats, _ = connected_components(borders.view(np.uint8))
    h, w = borders.shape
    out = list(readings)
    for i in asked:
        cl = readings[i].cluster
        x0, y0, x1, y1 = (int(v) for v in cl.bbox)
        th = cl.text_h
        # (The pieces met under the number: between its middle and its reach below.)
        wy0, wy1 = max(0, (y0 + y1) // 2), min(h, round(y1 + cfg.border_underline_drop * th))
        wx0, wx1 = max(0, x0), min(w, x1)
        if wy1 <= wy0 or wx1 <= wx0:
            continue
        found = np.unique(labels[wy0:wy1, wx0:wx1])
        reach = cfg.border_underline_reach * th
        for k in found[found > 0]:
            px, py, pw, ph = (int(v) for v in stats[k, :4])
            if (
                px >= x0 - reach
                and px + pw <= x1 + reach
                and py >= y1 - cfg.border_underline_rise * th
                and py + ph <= y1 + cfg.border_underline_drop * th
                and pw >= cfg.border_underline_width * (x1 - x0)
                and ph <= cfg.border_underline_height * th
            ):
                out[i] = replace(readings[i], underlined=cfg.border_underline)
                break
    return out


def _numbers_in_nothing(
    readings: list[ClusterReading],
    cfg: MarksSettings,
    crops: list[NDArray[np.float32]] | None = None,
) -> list[ClusterReading]:
    """The whole clusters read as nothing that are numbers all the same: those with most
    of their posterior on the numbers (``nothing_number_mass``), and lone strokes of
    writing height with some (``stroke_one_height``, read as "1"); both of one
    component (scattered specks in an empty sudoku cell can read as a number).
    ``crops``: the clusters' crops, by index (to tell a slanted or thick stroke)."""
    out = list(readings)
    for i, r in enumerate(readings):
        cl = r.cluster
        if r.text or cl.split_of is not None or cl.height < cfg.number_min_height:
            continue
        one_piece = len(cl.components) == 1
        if one_piece and r.alt_number and r.number_mass >= cfg.nothing_number_mass:
            out[i] = _as_number(r)
        elif _lone_stroke(r, cfg, crops[i] if crops is not None else None):
            out[i] = replace(r, text="1", probability=r.number_mass)
    return out


def _lone_stroke(
    r: ClusterReading, cfg: MarksSettings, crop: NDArray[np.float32] | None = None
) -> bool:
    """Whether ``r`` (read as nothing) is one tall thin component with some posterior
    on the numbers (see ``stroke_one_height``): narrow in its box, or (given its
    ``crop``) a long stroke near upright (``stroke_one_elongation``)."""
    cl = r.cluster
    x0, y0, x1, y1 = cl.bbox
    if (
        cl.light
        or len(cl.components) != 1
        or cl.height < cfg.stroke_one_height
        or r.number_mass < cfg.stroke_one_mass
    ):
        return False
    if x1 - x0 <= cfg.stroke_one_width * (y1 - y0):
        return True
    if crop is None or cfg.stroke_one_elongation <= 0:
        return False
    return _upright_stroke(_cluster_ink(cl, crop), cfg)


def _cluster_ink(cl: Cluster, crop: NDArray[np.float32]) -> NDArray[np.float32]:
    """The part of ``crop`` that holds the ink of cluster ``cl`` (its ``crop_box``)."""
    bx0, by0, bx1, by1 = cl.crop_box
    return crop[max(0, by0) : by1, max(0, bx0) : bx1]


def _upright_stroke(ink: NDArray[np.float32], cfg: MarksSettings) -> bool:
    """Whether ``ink`` is one straight stroke (at least ``stroke_one_elongation`` times
    longer than wide) at most ``stroke_one_slant`` degrees off upright."""
    m = _ink_moments(ink)
    if _moments_elongation(m) < cfg.stroke_one_elongation:
        return False
    return abs(_lean(m)) <= cfg.stroke_one_slant


def _lean(m: dict[str, float]) -> float:
    """The degrees off upright of the main axis of the ink of moments ``m`` (signed:
    the sign tells the side it leans to)."""
    axis = float(0.5 * np.degrees(np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"])))
    return 90.0 - axis if axis > 0 else -axis - 90.0


def _line_ones(
    readings: list[ClusterReading], gray: NDArray[Any] | None, cfg: MarksSettings
) -> list[ClusterReading]:
    """The readings with the "1"s that are pieces of a longer line (see
    ``line_one_reach``) read as nothing. ``gray``: the page's grey in the clusters'
    frame (uint8 or float, (row, col))."""
    if gray is None or cfg.line_one_reach <= 0:
        return readings
    return [
        _nothing(r)
        if r.text == "1"
        and r.cluster.split_of is None
        and len(r.cluster.components) == 1
        and _on_line(r.cluster, gray, cfg)
        else r
        for r in readings
    ]


def _stroke_pairs(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    cfg: MarksSettings,
    only: Callable[[Cluster], bool] | None = None,
) -> list[ClusterReading]:
    """The readings with the whole clusters that are two strokes side by side read
    "11" (see ``ones_pair_height``); ``readings`` itself when none is. ``crops``: the
    clusters' crops, by index; ``only``: when given, the clusters looked at."""
    out = list(readings)
    for i, (r, crop) in enumerate(zip(readings, crops, strict=True)):
        cl = r.cluster
        if cl.split_of is not None or r.text == "11":
            continue
        # (On a page that names no countries, two strokes joined, or with other pieces
        # (a printed line's remnants), are a doubtful sight: taken only for a reading
        # with some posterior on the numbers, the strokes alike in width; a piece of a
        # border's outline reads as nothing, a faint line beside a 1 is thinner.)
        doubtful = only is None and len(cl.components) != 2
        if not (only(cl) if only is not None else 1 <= len(cl.components) <= cfg.ones_pair_pieces):
            continue
        if r.text.isdigit() and r.text != "1":
            continue
        if doubtful and r.number_mass < cfg.ones_pair_joined_mass:
            continue
        if _two_strokes(crop, cl, cfg, cfg.ones_pair_alike if doubtful else 0.0):
            out[i] = replace(r, text="11", probability=r.number_mass)
    return out if any(a is not b for a, b in zip(out, readings, strict=True)) else readings


def _named_clusters(resolved: list[ClusterReading], least: float) -> set[int]:
    """The whole clusters of ``resolved`` (by ``id``) in a country whose letter another
    whole cluster reads as, with at least ``least`` posterior (see
    ``ones_pair_named``)."""
    named: dict[int, list[Cluster]] = {}
    for r in resolved:
        if r.cluster.split_of is None and r.letter and r.probability >= least:
            named.setdefault(r.cluster.region, []).append(r.cluster)
    return {
        id(r.cluster)
        for r in resolved
        if r.cluster.split_of is None
        and any(x is not r.cluster for x in named.get(r.cluster.region, []))
    }


def _two_strokes(
    crop: NDArray[np.float32], cl: Cluster, cfg: MarksSettings, alike: float = 0.0
) -> bool:
    """Whether the ink in ``cl``'s box of its ``crop`` is two straight strokes side by
    side (``ones_pair_level`` of the shorter one's height level with the other), each at least
    ``ones_pair_height`` writing heights high and at least ``stroke_one_elongation``
    times longer than wide, leaning alike (``ones_pair_parallel``) at most
    ``ones_pair_slant`` degrees off upright. Ink that is one piece is opened first (see
    ``ones_pair_open``). ``alike`` > 0: the thinner stroke (pixels per row) at least that
    fraction of the other's width."""
    ink = _cluster_ink(cl, crop)
    on = (ink > _STROKE_LEVEL).view(np.uint8)
    least = cfg.ones_pair_height * cl.text_h

    def strokes(mask: NDArray[np.uint8]) -> tuple[NDArray[np.int32], NDArray[np.int32], list[int]]:
        """Components of ``mask``: labels, stats, and those at least ``least`` high."""
        n, lab, stats, _ = _components(mask)
        return lab, stats, [k for k in range(1, n) if stats[k, cv2.CC_STAT_HEIGHT] >= least]

    lab, stats, tall = strokes(on)
    side = round(cfg.ones_pair_open * cl.text_h)
    if len(tall) == 1 and side >= 2:
        # (Two strokes joined by a thin piece across: what is left of a printed line
        # through both, a touch. The pieces across are thinner than the strokes are
        # high.)
        lab, stats, tall = strokes(
            cv2.morphologyEx(on, cv2.MORPH_OPEN, np.ones((side, 1), np.uint8))
        )
    if len(tall) != 2:
        return False
    (_, ya, _, ha, aa), (_, yb, _, hb, ab) = (stats[k] for k in tall)
    if alike > 0 and min(aa / ha, ab / hb) < alike * max(aa / ha, ab / hb):
        return False
    if min(ya + ha, yb + hb) - max(ya, yb) < cfg.ones_pair_level * min(ha, hb):
        return False
    slants = []
    for k in tall:
        m = _ink_moments((lab == k).astype(np.float32))
        if _moments_elongation(m) < cfg.stroke_one_elongation:
            return False
        slants.append(_lean(m))
    return (
        max(abs(x) for x in slants) <= cfg.ones_pair_slant
        and abs(slants[0] - slants[1]) <= cfg.ones_pair_parallel
    )


def _on_line(cl: Cluster, gray: NDArray[Any], cfg: MarksSettings) -> bool:
    """Whether the stroke in ``cl``'s box goes on as a line beyond both its ends (see
    ``line_one_reach``), in ``gray`` (the page's grey in the cluster's frame)."""
    x0, y0, x1, y1 = cl.bbox
    reach = cfg.line_one_reach * cl.text_h
    pad = int(np.ceil(reach)) + 3
    wx0, wy0 = max(0, x0 - pad), max(0, y0 - pad)
    win = np.asarray(gray[wy0 : y1 + pad, wx0 : x1 + pad], np.float32)
    if x1 <= x0 or y1 <= y0 or not win.size:
        return False
    # Darkness over the paper (the window is mostly paper; its median is the paper's
    # grey even where the light falls off across the page).
    dark = np.maximum(np.median(win) - win, 0.0)
    box = dark[y0 - wy0 : y1 - wy0, x0 - wx0 : x1 - wx0]
    level = float(np.percentile(box, 95))
    if level <= 0:
        return False
    m = _ink_moments(box / level * 0.6)  # (the stroke: at least half as dark as it)
    if m["m00"] < 3:
        return False
    angle = 0.5 * np.arctan2(2 * m["mu11"], m["mu20"] - m["mu02"])
    u = np.array([np.cos(angle), np.sin(angle)])
    centre = np.array([m["m10"] / m["m00"] + x0 - wx0, m["m01"] / m["m00"] + y0 - wy0])
    # The stroke's half length along its axis, from its second moment (a bar of length
    # L has a variance of L^2 / 12 along it).
    var = 0.5 * (m["mu20"] + m["mu02"]) + np.hypot(0.5 * (m["mu20"] - m["mu02"]), m["mu11"])
    half = float(np.sqrt(3 * var / m["m00"]))
    ts = np.arange(half + 2.0, half + 2.0 + reach)
    # A few pixels across the axis: the axis is a little off on a short stroke.
    across = np.arange(-2.0, 3.0)[None, :, None] * np.array([-u[1], u[0]])
    h, w = dark.shape
    for side in (1.0, -1.0):
        pts = np.rint(centre + side * ts[:, None, None] * u + across).astype(int)
        px, py = pts[..., 0], pts[..., 1]
        inside = (px >= 0) & (py >= 0) & (px < w) & (py < h)
        val = np.where(inside, dark[py.clip(0, h - 1), px.clip(0, w - 1)], 0.0).max(axis=1)
        if not ts.size or np.mean(val >= cfg.line_one_dark * level) < cfg.line_one_cover:
            return False
    return True


def _picked_inputs(
    crops: list[NDArray[np.float32]],
    pick: list[int],
    inputs: dict[int, NDArray[np.float32]] | None,
) -> NDArray[np.float32]:
    """The network inputs of ``crops[i]`` for ``i`` in ``pick``, stacked: those already
    made (``inputs``, by index) taken as they are."""
    made = inputs or {}
    return np.stack([made[i] if i in made else digits.to_input(crops[i]) for i in pick])


def second_opinion(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
    *,
    inputs: dict[int, NDArray[np.float32]] | None = None,
    nets: dict[str, digits.MarkNet] | None = None,
) -> list[ClusterReading]:
    """The underline and cross-out of the doubtful number readings, with the second
    network's word on them (see ``MarksSettings.second_crossed``, ``second_underline``
    and ``second_underline_nets``).

    Parameters
    ----------
    readings : list of ClusterReading
        The readings of ``crops``, in order.
    crops : list of (H, W) float arrays
        Ink darkness of each cluster (as :func:`read_clusters` takes them).
    settings : MarksSettings, optional
    net : MarkNet, optional
        The second network; :func:`digits.load_second_net` when None (loaded only when
        some reading asks for it).
    inputs : dict, optional
        Network inputs already made of some crops, by index (see :func:`read_clusters`).
    nets : dict of str to MarkNet, optional
        The networks of ``second_underline_nets`` by name; loaded when missing (see
        :func:`digits.load_named_net`).

    Returns
    -------
    list of ClusterReading
        ``readings`` with the marks of the asked ones replaced; texts unchanged.
    """
    cfg = settings or MarksSettings()
    lo, hi = cfg.second_underline
    ask_x = [
        (r.cluster.split_of is None or cfg.second_crossed_splits)
        and r.text.isdigit()
        and r.crossed > cfg.second_crossed
        for r in readings
    ]
    ask_u = [r.whole_number and lo < r.underlined < hi for r in readings]
    pick = [i for i in range(len(readings)) if ask_x[i] or ask_u[i]]
    if not pick:
        return readings
    picked = _picked_inputs(crops, pick, inputs)
    out = (net or digits.load_second_net()).run(picked)
    # The doubtful underlines: the mean log-odds of the second network's word and the
    # others' of ``second_underline_nets`` (read on those crops only).
    odds = _logits(out.underlined)
    asked_u = [j for j, i in enumerate(pick) if ask_u[i]]
    if asked_u and cfg.second_underline_nets:
        more = [
            (nets or {}).get(name) or digits.load_named_net(name)
            for name in cfg.second_underline_nets
        ]
        rows = picked[asked_u]
        words = [_logits(m.run(rows).underlined) for m in more]
        second = odds[asked_u]
        mean = (second + sum(words)) / (1 + len(more))
        t = _logit(cfg.mark_threshold)
        if cfg.second_underline_seen:
            # No underline that neither number reader sees: the second's word stands.
            unseen = np.array([readings[pick[j]].underlined <= cfg.mark_threshold for j in asked_u])
            mean = np.where(unseen & (second <= t), second, mean)
        # The second's underline is taken back only by a clear no of the helpers: their
        # mean below second_underline_veto and (second_underline_veto_all) each one's no.
        veto = mean <= _logit(cfg.second_underline_veto)
        if cfg.second_underline_veto_all:
            veto &= np.max(np.stack(words), axis=0) <= 0
        mean = np.where((second > t) & (mean <= t) & ~veto, second, mean)
        odds[asked_u] = mean
    result = list(readings)
    for j, i in enumerate(pick):
        r = readings[i]
        w = cfg.second_crossed_weight
        crossed = (1 - w) * r.crossed + w * float(out.crossed[j]) if ask_x[i] else r.crossed
        underlined = _sigmoid(float(odds[j])) if ask_u[i] else r.underlined
        result[i] = replace(r, crossed=crossed, underlined=underlined)
    return result


def second_sevens(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
    *,
    inputs: dict[int, NDArray[np.float32]] | None = None,
) -> list[ClusterReading]:
    """``readings`` with the whole numbers read "2" that the second network reads
    as "7" (see ``MarksSettings.second_seven``) read "7".

    ``net``: the second network; :func:`digits.load_second_net` when None (loaded only
    when some reading is asked). ``inputs``: network inputs already made of some
    crops, by index (see :func:`read_clusters`).
    """
    cfg = settings or MarksSettings()
    if np.isinf(cfg.second_seven):
        return readings
    pick = [
        i
        for i, r in enumerate(readings)
        if r.whole_number and r.text == "2" and r.cluster.height >= cfg.number_min_height
    ]
    if not pick:
        return readings
    out = (net or digits.load_second_net()).run(_picked_inputs(crops, pick, inputs))
    post = _mean_posterior(out.logprobs, len(pick))
    base = digits.closed_vocabulary()
    two, seven = post[:, base.index("2")], post[:, base.index("7")]
    result = list(readings)
    for j, i in enumerate(pick):
        if seven[j] > cfg.second_seven * two[j]:
            result[i] = replace(readings[i], text="7", probability=float(seven[j]))
    return result


def _logits(p: NDArray[np.floating]) -> NDArray[np.float64]:
    """The log-odds of the probabilities ``p`` (clipped to 1e-6 .. 1 - 1e-6)."""
    q = np.clip(np.asarray(p, np.float64), 1e-6, 1.0 - 1e-6)
    return np.asarray(np.log(q / (1.0 - q)), np.float64)


def crossed_views(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    settled: list[float],
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
) -> list[ClusterReading]:
    """``readings`` with the cross-out probability of the doubtful whole numbers mixed
    with the second network's on more views of their crops (see
    ``MarksSettings.crossed_views``).

    ``settled``: each reading's cross-out probability before the re-reads of cleaned
    crops; a reading whose probability one of them changed keeps it. ``net``: the
    second network (:func:`digits.load_second_net` when None and some reading asks).
    """
    cfg = settings or MarksSettings()
    lo, hi = cfg.crossed_views
    pick = [
        i
        for i, r in enumerate(readings)
        if r.whole_number and lo <= r.crossed <= hi and r.crossed == settled[i]
    ]
    if not pick or lo >= hi:
        return readings
    per = [_crossed_view_crops(crops[i], cfg) for i in pick]
    out = _run_views(net or digits.load_second_net(), [v for vs in per for v in vs])
    means = [float(g.mean()) for g in np.split(out.crossed, np.cumsum([len(v) for v in per])[:-1])]
    w = cfg.crossed_views_weight
    result = list(readings)
    for i, m in zip(pick, means, strict=True):
        result[i] = replace(readings[i], crossed=(1 - w) * readings[i].crossed + w * m)
    return result


def _crossed_view_crops(crop: NDArray[np.float32], cfg: MarksSettings) -> list[NDArray[np.float32]]:
    """The views of a doubtful cross-out's crop (see ``MarksSettings.crossed_views``)."""
    views = [rotate_ink(crop, a) for a in cfg.crossed_angles]
    views += [shear_ink(crop, s) for s in cfg.view_shears]
    views += [
        cv2.resize(crop, None, fx=f, fy=1.0, interpolation=cv2.INTER_LINEAR)
        for f in cfg.crossed_stretches
    ]
    return views


def crossed_net_word(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
    *,
    inputs: dict[int, NDArray[np.float32]] | None = None,
    second: digits.MarkNet | None = None,
) -> list[ClusterReading]:
    """``readings`` with the cross-out probability of the number readings in
    ``crossed_net_band`` moved by the crossed-out reader's word on their crops (see
    ``MarksSettings.crossed_net_weight``); texts unchanged.

    ``net``: the crossed-out reader (:func:`digits.load_crossed_net` when None, loaded
    only when some reading is asked); ``inputs``: network inputs already made of some
    crops, by index (see :func:`read_clusters`); ``second``: the second network
    (:func:`digits.load_second_net` when None, run only with ``crossed_net_second``).
    """
    cfg = settings or MarksSettings()
    lo, hi = cfg.crossed_net_band
    if cfg.crossed_net_weight <= 0.0:
        return readings
    pick = [
        i
        for i, r in enumerate(readings)
        if r.number is not None and r.text and lo <= r.crossed <= hi
    ]
    if not pick:
        return readings
    x = _picked_inputs(crops, pick, inputs)
    out = (net or digits.load_crossed_net()).run(x)
    again = None
    if cfg.crossed_net_second != 0.0:
        again = (second or digits.load_second_net()).run(x).crossed
    result = list(readings)
    for j, i in enumerate(pick):
        z = (
            cfg.crossed_net_own * _logit(readings[i].crossed)
            + cfg.crossed_net_weight * _logit(float(out.crossed[j]))
            + cfg.crossed_net_shift
        )
        if again is not None:
            z += cfg.crossed_net_second * _logit(float(again[j]))
        result[i] = replace(readings[i], crossed=_sigmoid(z))
    return result


def _posteriors(ll: NDArray[np.float64]) -> NDArray[np.float64]:
    """Each row of log-likelihoods ``ll`` (N, K) as a posterior over its K texts."""
    post = np.exp(ll - ll.max(axis=1, keepdims=True))
    post /= post.sum(axis=1, keepdims=True)
    return np.asarray(post)


def _mean_posterior(logprobs: NDArray[np.float32], groups: int) -> NDArray[np.float64]:
    """The posterior over the closed vocabulary (nothing, numbers, letters) of each of
    ``groups`` equal runs of rows of ``logprobs``, averaged over its run."""
    ll = digits.ctc_log_likelihood(logprobs, digits.closed_vocabulary())
    post = _posteriors(ll)
    return np.asarray(post.reshape(groups, len(post) // groups, -1).mean(axis=1))


def crossed_asked(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether :func:`crossed_text` reads ``r`` again (see ``MarksSettings.crossed_text``)."""
    return (
        r.cluster.split_of is None
        and (r.text.isdigit() or not r.text)
        and r.crossed > (cfg.crossed_text if r.text else cfg.crossed_text_nothing)
        and r.probability < cfg.crossed_text_below
    )


def crossed_text(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    settings: MarksSettings | None = None,
    second: digits.MarkNet | None = None,
    *,
    logprobs: NDArray[np.float32] | None = None,
    likelihoods: NDArray[np.float64] | None = None,
) -> list[ClusterReading]:
    """The text of the whole clusters read as crossed out, with another network's word
    on it (see ``MarksSettings.crossed_text``).

    Parameters
    ----------
    readings : list of ClusterReading
        The readings of ``crops``, in order.
    crops : list of (H, W) float arrays
        Ink darkness of each cluster (as :func:`read_clusters` takes them).
    net : MarkNet
        The first network.
    settings : MarksSettings, optional
    second : MarkNet, optional
        The other network; by ``crossed_text_net`` when None (loaded only when some
        reading is asked, see :func:`crossed_asked`).
    logprobs : (N, T, C) array, optional
        The first network's outputs for ``crops`` (their own views): with them, and
        without ``crossed_text_first_views``, the first network reads no other view.
    likelihoods : (N, K) array, optional
        The log-likelihoods of the closed vocabulary for ``crops`` (see
        :func:`read_clusters`): with ``crossed_text_hundred``, the rows of the asked
        ones are set to the log of the mean posterior that decides their text, in place.

    Returns
    -------
    list of ClusterReading
        ``readings`` with the text (and its posterior) of the asked ones replaced by
        the likeliest number of the mean posterior over the views and both networks
        ("mean"), or by the other network's when surer than the first network's
        likeliest text ("better"); marks unchanged.
    """
    cfg = settings or MarksSettings()
    if cfg.crossed_text >= 1.0:
        return readings
    pick = [i for i, r in enumerate(readings) if crossed_asked(r, cfg)]
    if not pick:
        return readings
    per = [[crops[i], *_views(crops[i], cfg.crossed_text_shears, cfg)] for i in pick]
    views = [v for vs in per for v in vs]
    other = second or digits.load_named_net(cfg.crossed_text_net)
    word = _mean_posterior(_run_views(other, views).logprobs, len(pick))
    if logprobs is None or cfg.crossed_text_first_views:
        first = _mean_posterior(_run_views(net, views).logprobs, len(pick))
    else:
        first = _mean_posterior(logprobs[pick], len(pick))
    if cfg.crossed_text_mix == "mean":
        word = cfg.crossed_text_weight * word + (1.0 - cfg.crossed_text_weight) * first
        first = np.zeros_like(first)
    base = digits.closed_vocabulary()
    if likelihoods is not None and cfg.crossed_text_hundred and cfg.crossed_text_mix == "mean":
        likelihoods[pick] = np.log(np.maximum(word, 1e-30))
    result = list(readings)
    for j, i in enumerate(pick):
        k = int(np.argmax(word[j]))
        text = base[k]
        if text.isdigit() and text != readings[i].text and word[j, k] > first[j].max():
            result[i] = replace(readings[i], text=text, probability=float(word[j, k]))
    return result


def _ink_aspect(crop: NDArray[np.float32]) -> float:
    """Width over height of the box of a crop's ink (:func:`digits.ink_box`)."""
    box = digits.ink_box(crop)
    if box is None:
        return 0.0
    y0, y1, x0, x1 = box
    return float(x1 - x0) / float(y1 - y0)


def pair_asked(r: ClusterReading, crop: NDArray[np.float32], cfg: MarksSettings) -> bool:
    """Whether the pair network reads ``r`` again (see ``MarksSettings.pairs_aspect``)."""
    below = {1: cfg.pairs_below, 2: cfg.pairs_two_below}.get(len(r.text), 0.0)
    narrow = len(r.text) == 1 and cfg.pairs_narrow_confidence <= 1.0
    return (
        r.whole_number
        and r.probability < below
        and r.cluster.height >= cfg.number_min_height
        and (narrow or _ink_aspect(crop) >= cfg.pairs_aspect)
    )


def pair_reread(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    settings: MarksSettings | None = None,
    net: digits.MarkNet | None = None,
    *,
    inputs: dict[int, NDArray[np.float32]] | None = None,
) -> list[ClusterReading]:
    """Unsure one- and two-digit readings of wide clusters (and one-digit ones of
    narrower clusters, see ``pairs_narrow_confidence``), read again by the pair network.

    Parameters
    ----------
    readings : list of ClusterReading
        The readings of ``crops``, in order.
    crops : list of (H, W) float arrays
        Ink darkness of each cluster (as :func:`read_clusters` takes them).
    settings : MarksSettings, optional
    net : MarkNet, optional
        The pair network; :func:`digits.load_pairs_net` when None (loaded only when some
        reading is asked, see :func:`pair_asked`).
    inputs : dict, optional
        Network inputs already made of some crops, by index (see :func:`read_clusters`).

    Returns
    -------
    list of ClusterReading
        ``readings`` with the text (and its posterior) replaced where the pair network
        reads, with at least ``pairs_confidence`` (``pairs_narrow_confidence`` for a
        narrower cluster), a two-digit number holding the one digit read, or another
        number for a two-digit reading; marks unchanged.
    """
    cfg = settings or MarksSettings()
    pick = [i for i, r in enumerate(readings) if pair_asked(r, crops[i], cfg)]
    if not pick:
        return readings
    out = (net or digits.load_pairs_net()).run(_picked_inputs(crops, pick, inputs))
    post = _mean_posterior(out.logprobs, len(pick))
    result = list(readings)
    for j, i in enumerate(pick):
        text = readings[i].text
        held = [n for n in range(10, 100) if text in str(n)] if len(text) == 1 else []
        k = max(held or range(1, digits.MAX_ARMIES + 1), key=lambda n: post[j, n])
        least = cfg.pairs_confidence
        if _ink_aspect(crops[i]) < cfg.pairs_aspect:
            least = cfg.pairs_narrow_confidence
        if post[j, k] >= least:
            result[i] = replace(readings[i], text=str(k), probability=float(post[j, k]))
    return result


def _touching_underlines(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    line_width: float,
    cfg: MarksSettings,
    first: list[str] | None = None,
) -> list[ClusterReading]:
    """``readings`` with the numbers whose underline touches the digits underlined (see
    ``MarksSettings.touch_shift``): the asked ones' lowest long stroke moved down below
    the writing, as the network knows underlines, and read again in one batch."""
    if cfg.touch_shift <= 0:
        return readings
    asked = [
        i
        for i, r in enumerate(readings)
        if _underline_doubted(r, cfg) and not any(d in r.text for d in cfg.touch_skip)
    ]
    pick, views = _touch_views(readings, crops, asked, line_width, cfg, cfg)
    return _underlined_when_same(readings, pick, views, net, cfg, first)


def _touch_views(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    asked: list[int],
    line_width: float,
    reach: MarksSettings,
    cfg: MarksSettings,
) -> tuple[list[int], list[NDArray[np.float32]]]:
    """The asked readings whose crop has a stroke touching the writing from below shaped
    as an underline (:func:`_touching_stroke` with the settings ``reach``), and their
    views with that stroke moved down ``touch_shift`` writing heights."""
    pick: list[int] = []
    views: list[NDArray[np.float32]] = []
    for i in asked:
        text_h = readings[i].cluster.text_h
        stroke = _touching_stroke(crops[i], text_h, line_width, reach)
        if stroke is not None:
            pick.append(i)
            views.append(_moved_down(crops[i], stroke, max(2, round(cfg.touch_shift * text_h))))
    return pick, views


def _underlined_letters(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    line_width: float,
    cfg: MarksSettings,
) -> list[ClusterReading]:
    """``readings`` with the letters that are a number on an underline touching it (a 7
    over its underline reads Z, a 1 reads L; see ``MarksSettings.letter_touch_prob``):
    the touching stroke moved down below the writing, and the view read as a number,
    underlined, with at least that posterior takes the reading's place."""
    if cfg.letter_touch_prob > 1.0 or cfg.touch_shift <= 0:
        return readings
    reach = replace(cfg, touch_overhang=cfg.letter_touch_overhang)
    asked = [
        i
        for i, r in enumerate(readings)
        if len(r.text) == 1 and r.letter is not None and _whole_ink(r, cfg)
    ]
    pick, views = _touch_views(readings, crops, asked, line_width, reach, cfg)
    if not pick:
        return readings
    out = _run_views(net, views)
    texts, probs, alts, nums = _readings(out.logprobs, pairs=False)
    result = list(readings)
    for j, i in enumerate(pick):
        u = float(out.underlined[j])
        if (
            texts[j].isdigit()
            and probs[j] >= cfg.letter_touch_prob
            and u > cfg.mark_threshold
            and not any(d in texts[j] for d in cfg.touch_skip)
        ):
            result[i] = replace(
                readings[i],
                text=texts[j],
                probability=probs[j],
                underlined=u,
                crossed=float(out.crossed[j]),
                alt_letter=alts[j][0],
                letter_mass=alts[j][1],
                alt_number=nums[j][0],
                number_mass=nums[j][1],
            )
    return result


def _faint_underlines(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    cfg: MarksSettings,
    gray: NDArray[np.uint8] | None = None,
    ruled: dict[int, NDArray[np.float32] | None] | None = None,
) -> list[ClusterReading]:
    """``readings`` with the numbers whose crop took light writing from beside them
    (``Cluster.faint``) read again without it (see ``faint_reread``): underlined when
    that view reads the same text underlined. ``gray``, ``ruled``: as
    :func:`_ruled_underlines` (the view is of the crop cleaned of printed ruling)."""
    if cfg.faint_reread <= 0:
        return readings
    pick: list[int] = []
    views: list[NDArray[np.float32]] = []
    for i, r in enumerate(readings):
        cl = r.cluster
        if not cl.faint or not _underline_doubted(r, cfg):
            continue
        clean = (
            None if gray is None or ruled is None else _ruled_view(i, crops, cl, gray, cfg, ruled)
        )
        view = _dark_pieces(crops[i] if clean is None else clean, cfg.faint_reread)
        if view is not None:
            pick.append(i)
            views.append(view)
    return _underlined_when_same(readings, pick, views, net, cfg)


def _underline_doubted(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether ``r`` is a whole number of writing height whose underline is in doubt
    (above ``touch_least``, at most ``mark_threshold``): worth another view."""
    return (
        r.whole_number
        and cfg.touch_least < r.underlined <= cfg.mark_threshold
        and r.cluster.height >= cfg.number_min_height
    )


def _underlined_when_same(
    readings: list[ClusterReading],
    pick: list[int],
    views: list[NDArray[np.float32]],
    net: digits.MarkNet,
    cfg: MarksSettings,
    first: list[str] | None = None,
) -> list[ClusterReading]:
    """``readings`` with those of ``pick`` underlined when their view (``views``, in
    the same order) is read as the same text, underlined (above ``mark_threshold``).
    ``first``: the texts the network read the crops as, by index: a view read as that
    text counts as the same too (the view is the network's alone; the reading's text
    may come of other views or networks)."""
    if not pick:
        return readings
    out = _run_views(net, views)
    texts, _, _, _ = _readings(out.logprobs, pairs=cfg.pair_vocabulary)
    result = list(readings)
    for j, i in enumerate(pick):
        u = float(out.underlined[j])
        same = texts[j] == readings[i].text or (first is not None and texts[j] == first[i])
        if same and u > cfg.mark_threshold:
            result[i] = replace(readings[i], underlined=u)
    return result


def _dark_pieces(crop: NDArray[np.float32], core: float) -> NDArray[np.float32] | None:
    """``crop`` with only its pieces of ink (above ``digits.INK_LEVEL``, as
    :func:`digits.ink_box` sees it) that hold a pixel at least ``core`` dark; None when
    that leaves it alike or empty."""
    on = (crop > digits.INK_LEVEL).astype(np.uint8)
    n, lab, _, _ = _components(on)
    if n <= 2:
        return None
    dark = np.zeros(n, bool)
    dark[np.unique(lab[crop >= core])] = True
    dark[0] = False
    if dark[1:].all() or not dark.any():
        return None
    view = crop.copy()
    view[~dark[lab]] = 0.0
    return view


def _crossed_without_underline(
    readings: list[ClusterReading],
    crops: list[NDArray[np.float32]],
    net: digits.MarkNet,
    line_width: float,
    cfg: MarksSettings,
) -> list[ClusterReading]:
    """``readings`` with the numbers read as crossed out and underlined whose crop holds an
    underline apart from the digits read again without it (see
    ``MarksSettings.crossed_underlined``): the network's cross-out on that view replaces
    theirs when it is ``mark_threshold`` or less."""
    pick: list[int] = []
    views: list[NDArray[np.float32]] = []
    for i, r in enumerate(readings):
        if (
            not r.whole_number
            or r.crossed <= cfg.mark_threshold
            or r.underlined <= cfg.mark_threshold
        ):
            continue
        stroke = _apart_underline(crops[i], r.cluster.text_h, line_width, cfg)
        if stroke is not None:
            view = crops[i].copy()
            view[stroke] = 0.0
            pick.append(i)
            views.append(view)
    if not pick:
        return readings
    crossed = _run_views(net, views).crossed
    result = list(readings)
    for j, i in enumerate(pick):
        if crossed[j] <= cfg.mark_threshold:
            result[i] = replace(readings[i], crossed=float(crossed[j]))
    return result


def _apart_underline(
    crop: NDArray[np.float32], text_h: float, line_width: float, cfg: MarksSettings
) -> NDArray[np.bool_] | None:
    """The pixels (grown by one) of an underline apart from the digits in ``crop``, or
    None: a component of the writing (ink above ``touch_ink``; components smaller than
    half a line width squared left out) shaped as ``MarksSettings.underline_apart_height``
    says."""
    ink = (crop > cfg.touch_ink).astype(np.uint8)
    n, lab, st, _ = cv2.connectedComponentsWithStats(ink, connectivity=8)
    keep = [j for j in range(1, n) if st[j, 4] >= max(3.0, 0.5 * line_width * line_width)]
    if len(keep) < 2:
        return None
    top = min(int(st[j, 1]) for j in keep)
    bottom = max(int(st[j, 1] + st[j, 3]) for j in keep)
    for j in keep:
        x, y, w, h = (int(v) for v in st[j, :4])
        if h > cfg.underline_apart_height * text_h or w < cfg.underline_apart_ratio * h:
            continue
        if y < (top + bottom) / 2:
            continue
        above = [k for k in keep if k != j and st[k, 1] + st[k, 3] <= y + 0.75 * h + line_width]
        if not above:
            continue
        a0 = min(int(st[k, 0]) for k in above)
        a1 = max(int(st[k, 0] + st[k, 2]) for k in above)
        if w >= cfg.underline_apart_width * max(a1 - a0, 0.6 * text_h):
            grown = cv2.dilate((lab == j).astype(np.uint8), np.ones((3, 3), np.uint8)) > 0
            stroke: NDArray[np.bool_] = grown & (crop > 0.05)
            return stroke
    return None


def _longest_run(m: NDArray[Any]) -> tuple[int, int, int, int]:
    """The longest run of set pixels along the rows of ``m`` (the first of equal ones in
    reading order): its length, row, first and end column; zeros when ``m`` is empty."""
    h, w = m.shape
    padded = np.zeros((h, w + 2), np.int8)
    padded[:, 1:-1] = m
    d = np.diff(padded, axis=1)
    rows, starts = np.nonzero(d == 1)
    if rows.size == 0:
        return 0, 0, 0, 0
    ends = np.nonzero(d == -1)[1]
    j = int(np.argmax(ends - starts))
    return int(ends[j] - starts[j]), int(rows[j]), int(starts[j]), int(ends[j])


def _touching_stroke(
    crop: NDArray[np.float32], text_h: float, line_width: float, cfg: MarksSettings
) -> NDArray[np.bool_] | None:
    """The pixels of the lowest long, near-straight stroke of a cluster's writing shaped
    as an underline touching the digits above it (see ``MarksSettings.touch_slant`` to
    ``touch_ink``), or None.

    The writing is sheared by each slant tried; in each, the longest row run (gaps of a
    line width closed) of the lowest ``touch_lower`` of the writing is the candidate, the
    longest over the slants is kept. Its band (a line width either side of its row) is
    the stroke; the writing above the band is the digits it is measured against.
    """
    ink = (crop > cfg.touch_ink).astype(np.uint8)
    rows = np.flatnonzero(ink.any(axis=1))
    if rows.size == 0:
        return None
    cols = np.flatnonzero(ink.any(axis=0))
    y0, x0 = int(rows[0]), int(cols[0])
    ink = ink[y0 : int(rows[-1]) + 1, x0 : int(cols[-1]) + 1]
    h, w = ink.shape
    lw = max(1, round(line_width))
    close = np.ones((1, lw + 1), np.uint8)
    n = round(cfg.touch_slant / cfg.touch_slant_step) if cfg.touch_slant_step > 0 else 0
    best = None
    for k in range(-n, n + 1):
        s = k * cfg.touch_slant_step
        shear = np.array([[1, 0, 0], [-s, 1, s * (w - 1) / 2]], np.float32)  # y' = y - s (x-xc)
        sh = cv2.warpAffine(ink, shear, (w, h), flags=cv2.INTER_NEAREST) if k else ink
        on = np.flatnonzero(sh.any(axis=1))
        if on.size == 0:
            continue
        top, bottom = int(on[0]), int(on[-1]) + 1
        lo = bottom - max(1, round(cfg.touch_lower * (bottom - top)))
        length, j, first, end = _longest_run(
            cv2.morphologyEx(sh[lo:bottom], cv2.MORPH_CLOSE, close)
        )
        if length >= cfg.touch_length * text_h and (best is None or length > best[0]):
            best = (length, lo + j, first, end, top, bottom, shear, sh)
    if best is None:
        return None
    length_, y, a, b, top, bottom, shear, sh = best
    band0, band1 = max(0, y - lw), min(h, y + lw + 1)
    above = np.flatnonzero(sh[top:band0].any(axis=0))
    if above.size == 0:
        return None
    c0, c1 = int(above[0]), int(above[-1]) + 1
    if (
        length_ < cfg.touch_cover * (c1 - c0)
        or max(c0 - a, b - c1) < cfg.touch_overhang * text_h
        or bottom - y > cfg.touch_bottom * text_h
        or length_ > cfg.underline_max_width * max(c1 - c0, cfg.touch_narrow * text_h)
    ):
        return None
    band = np.zeros_like(sh)
    band[band0:band1, a:b] = sh[band0:band1, a:b]
    # (Its lower edge: the median depth of the ink run down from its row in its columns.)
    depth = int(
        np.median(np.argmin(np.vstack([sh[y:, a:b], np.zeros((1, b - a), sh.dtype)]), axis=0))
    )
    if np.count_nonzero(sh[y + depth + 1 :]) > cfg.touch_below * np.count_nonzero(band):
        return None  # (writing goes on below it: a digit's bar, as a 4's)
    if shear[1, 0]:
        band = cv2.warpAffine(
            band, cv2.invertAffineTransform(shear), (w, h), flags=cv2.INTER_NEAREST
        )
    band = cv2.dilate(band, np.ones((3, 3), np.uint8))
    mask = np.zeros(crop.shape, bool)
    mask[y0 : y0 + h, x0 : x0 + w] = band > 0
    return mask & (crop > 0.05)


def _moved_down(crop: NDArray[np.float32], mask: NDArray[np.bool_], d: int) -> NDArray[np.float32]:
    """``crop`` grown ``d`` rows at the bottom with the ink under ``mask`` moved down by
    ``d`` rows."""
    h, w = crop.shape
    out = np.zeros((h + d, w), np.float32)
    out[:h] = np.where(mask, 0, crop)
    out[d:] = np.maximum(out[d:], np.where(mask, crop, 0))
    return out


def softness(crop: NDArray[np.float32], settings: MarksSettings | None = None) -> float:
    """Fraction of a crop's ink pixels whose darkness is a mid-tone (blur, faint ink).

    Parameters
    ----------
    crop : (H, W) float array
        Ink darkness of one cluster, 0 = paper, 1 = the cluster's full ink level.
    settings : MarksSettings, optional
        ``soft_levels`` gives the mid-tone range.

    Returns
    -------
    float
        0 for a crop with no ink.
    """
    cfg = settings or MarksSettings()
    lo, hi = cfg.soft_levels
    v = crop[crop > 0.05]
    if v.size == 0:
        return 0.0
    return float(np.count_nonzero((v > lo) & (v < hi)) / v.size)


def best_readings(
    logprobs: NDArray[np.float32], *, pairs: bool = True
) -> tuple[list[str], list[float]]:
    """Best vocabulary string and its posterior for each item of a batch.

    The posterior is normalised over the vocabulary: nothing, the numbers 1-100 and the
    letters; for items whose best path has both a letter and a digit, also "letter next to
    number" strings built from the three likeliest letters and the ten likeliest numbers
    (scoring all 2600 pairs would cost more than the rest of the reading).
    """
    texts, probs, _, _ = _readings(logprobs, pairs=pairs)
    return texts, probs


def _readings(
    logprobs: NDArray[np.float32],
    *,
    pairs: bool = True,
    likelihoods: list[NDArray[np.float64]] | None = None,
) -> tuple[list[str], list[float], list[tuple[str, float]], list[tuple[str, float]]]:
    """Texts, posteriors, each item's likeliest letter with the letters' mass, and its
    likeliest number with the numbers' mass. ``likelihoods``: when given, receives the
    log-likelihoods of the closed vocabulary's texts (one (N, K) array)."""
    base = digits.closed_vocabulary()
    n_base = len(base)
    ll = digits.ctc_log_likelihood(logprobs, base)
    if likelihoods is not None:
        likelihoods.append(ll)
    greedy = digits.greedy_decode(logprobs)
    need = [
        i
        for i, g in enumerate(greedy)
        if pairs and any(c.isalpha() for c in g) and any(c.isdigit() for c in g)
    ]
    extra: dict[int, tuple[tuple[str, ...], NDArray[np.float64]]] = {}
    if need:
        letter_cls = np.array([digits.ALPHABET.index(c) + 1 for c in digits.LETTERS])
        for i in need:
            top_letters = np.argsort(-logprobs[i][:, letter_cls].max(axis=0))[:3]
            top_numbers = np.argsort(-ll[i, _NUMBERS])[:10] + 1
            cands = tuple(f"{digits.LETTERS[a]}{n}" for a in top_letters for n in top_numbers)
            extra[i] = (cands, digits.ctc_log_likelihood(logprobs[i : i + 1], cands)[0])
    texts: list[str] = []
    probs: list[float] = []
    alts: list[tuple[str, float]] = []
    nums: list[tuple[str, float]] = []
    first_letter = 1 + digits.MAX_ARMIES
    for i in range(ll.shape[0]):
        cand: tuple[str, ...] = base
        scores = ll[i]
        if i in extra:
            cand = base + extra[i][0]
            scores = np.concatenate([scores, extra[i][1]])
        m = np.max(scores)
        post = np.exp(scores - m)
        post /= post.sum()
        j = int(np.argmax(post))
        texts.append(cand[j])
        probs.append(float(post[j]))
        letter_post = post[first_letter:n_base]
        alts.append((base[first_letter + int(np.argmax(letter_post))], float(letter_post.sum())))
        number_post = post[1:first_letter]
        nums.append((base[1 + int(np.argmax(number_post))], float(number_post.sum())))
    return texts, probs, alts, nums


def resolve_splits(
    readings: list[ClusterReading],
    settings: MarksSettings | None = None,
    *,
    lettered: set[int] | None = None,
) -> list[ClusterReading]:
    """Keep each whole cluster, or the two parts of one of its trial splits.

    ``readings`` are those of :func:`extract_clusters` with ``splits=True``: the whole
    clusters first, then the parts. A split wins when one part reads as a letter and the
    other as a number, both confidently (the best such split by its weaker part's
    posterior mass on its kind: letters or numbers).

    ``lettered``: on a lettered page, the regions that hold a letter reading; in
    the others a split also wins when one part carries at least ``split_letter_mass``
    of its posterior on the letters (any letter but ``split_never_letters``) and the
    other ``split_number_mass`` on the numbers.
    """
    cfg = settings or MarksSettings()
    whole = [r for r in readings if r.cluster.split_of is None]
    parts: dict[int, list[ClusterReading]] = {}
    for r in readings:
        if r.cluster.split_of is not None:
            parts.setdefault(r.cluster.split_of[0], []).append(r)
    numbered = {r.cluster.region for r in whole if r.number is not None}
    out: list[ClusterReading] = []
    for j, r in enumerate(whole):
        best: tuple[ClusterReading, ClusterReading] | None = None
        best_p = 0.0  # (a confident split's masses exceed split_min_prob: see ``sure``)
        cand = parts.get(j, [])
        keep = r.text.isdigit() and r.probability >= cfg.split_keep_number
        for a, b in zip(cand[::2], cand[1::2], strict=True):
            kinds = {_kind(a.text, cfg), _kind(b.text, cfg)}
            sure = min(a.probability, b.probability) > cfg.split_min_prob
            if kinds == {"letter", "number"} and sure and not keep:
                # Of the confident splits, the one whose weaker part carries the most
                # posterior mass on its kind: "U19" cut as U|19 and as U1|9 reads the
                # letter U in both, the 19 less surely than the 9 as text (19 or 18)
                # but as surely a number.
                p = min(_kind_mass(x, cfg) for x in (a, b))
                if p > best_p:
                    best, best_p = (a, b), p
        # (A whole read as a letter and a number is the country's letter grouped with
        # its number: its letter is no sign that the letter stands apart.)
        mixed = r.letter is not None and r.number is not None
        if best is None and lettered is not None:
            if r.cluster.region not in lettered or mixed:
                best = _letter_split(cand, cfg)
            elif len(r.text) == 1 and r.letter and r.cluster.region not in numbered:
                # A lone letter reading whose split leaves that letter, sure, beside a
                # part with some posterior on the numbers: a thin number (a "1")
                # grouped with the country's letter, read as the letter alone.
                best = _letter_beside_number(cand, cfg)
            if best is not None:
                # An underline under the letter and the number reads with the whole.
                best = tuple(  # type: ignore[assignment]
                    replace(x, underlined=max(x.underlined, r.underlined)) if x.number else x
                    for x in best
                )
        doubtful = max(cfg.fragment_whole_below, cfg.fragment_nothing_whole_below)
        if best is None and r.number is not None and r.probability < doubtful:
            # A doubtful number whose split leaves a sure number of writing height beside
            # a small piece or one that surely reads as nothing: the piece is a fragment
            # (of the next cell's digit, of a border) grouped with it ("7" and a piece of
            # a 5 read 71).
            for a, b in zip(cand[::2], cand[1::2], strict=True):
                for n, f in ((a, b), (b, a)):
                    if (
                        n.number is not None
                        and n.probability >= cfg.fragment_number_prob
                        and n.cluster.height >= cfg.number_min_height
                        and _fragment(r, f, cfg)
                    ):
                        best = (n, _nothing(f))
                        break
                if best is not None:
                    break
        out.extend(best if best else (r,))
    return out


def _fragment(whole: ClusterReading, part: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether ``part`` of the split of ``whole`` (a number reading) is a fragment
    grouped with the number (see ``fragment_whole_below`` and
    ``fragment_nothing_prob``)."""
    small = part.cluster.height < cfg.fragment_height
    if small and whole.probability < cfg.fragment_whole_below:
        return True
    return (
        part.text == ""
        and part.probability >= cfg.fragment_nothing_prob
        and whole.probability < cfg.fragment_nothing_whole_below
    )


def _light_ok(r: ClusterReading, cfg: MarksSettings, one: bool = False) -> bool:
    """Whether a reading counts: any of ink-mask writing; of light writing (see
    ``light_seed``) a number of at least ``light_min_prob``, not a "1" of one component
    (``light_not_ones``) unless ``one``: a "1" of at least ``light_one_prob`` on a page
    whose light writing reads numbers, upright."""
    if not r.cluster.light:
        return True
    least = cfg.fainter_min_prob if r.cluster.fainter else cfg.light_min_prob
    if r.number is None or r.probability < least:
        return False
    lone = len(r.cluster.components) == 1
    if cfg.light_not_ones and lone and r.text == "1":
        return one and r.probability >= cfg.light_one_prob
    return True


def _light_ones_count(readings: list[ClusterReading], cfg: MarksSettings) -> bool:
    """Whether the page's light writing reads numbers (see ``light_one_share``): its
    light "1"s may count."""
    if cfg.light_one_prob > 1.0:
        return False
    light = [r for r in readings if r.cluster.light and r.cluster.split_of is None]
    counted = sum(_light_ok(r, cfg) for r in light)
    return counted > 0 and counted >= cfg.light_one_share * len(light)


def _upright_one(r: ClusterReading, crop: NDArray[np.float32], cfg: MarksSettings) -> bool:
    """Whether the ink of ``r``'s cluster in its ``crop`` leans at most
    ``stroke_one_slant`` degrees off upright (a "1", not a piece of a line across)."""
    return abs(_lean(_ink_moments(_cluster_ink(r.cluster, crop)))) <= cfg.stroke_one_slant


def _light_kept(
    readings: list[ClusterReading],
    cfg: MarksSettings,
    crops: list[NDArray[np.float32]] | None = None,
    n_regions: int = 0,
) -> list[ClusterReading]:
    """The readings with those of light writing that do not count (:func:`_light_ok`,
    or in a country whose ink reads a number: see ``light_labelled``) read as nothing.
    ``crops``: the clusters' crops, by index (a light "1" counts only with its crop:
    see ``light_one_prob``). ``n_regions``: the page's countries (a light letter
    counts, as a letter, on a page that its letters name: :func:`_light_letters`)."""
    numbered = {r.cluster.region for r in readings if _whole_ink(r, cfg) and r.number is not None}
    ones = [False] * len(readings)
    if crops is not None and _light_ones_count(readings, cfg):
        ones = [
            r.cluster.light and r.text == "1" and _upright_one(r, crop, cfg)
            for r, crop in zip(readings, crops, strict=True)
        ]
    named = _light_letters(readings, cfg, n_regions)
    return [
        r
        if k in named
        or (_light_ok(r, cfg, one) and not (r.cluster.light and r.cluster.region in numbered))
        else _nothing(r)
        for k, (r, one) in enumerate(zip(readings, ones, strict=True))
    ]


def _light_letters(readings: list[ClusterReading], cfg: MarksSettings, n_regions: int) -> set[int]:
    """The indices of the light readings that count as their country's letter (see
    ``light_letter_mass``): whole light clusters read as one letter with at least that
    posterior mass on the letters, in countries with no letter reading of the ink mask,
    on a page where these and the ink's letters name ``labelled_fraction`` of the
    ``n_regions`` countries."""
    if cfg.light_letter_mass > 1.0 or n_regions <= 0:
        return set()
    inked = {
        r.cluster.region
        for r in readings
        if not r.cluster.light and r.cluster.split_of is None and r.letter
    }
    found = {
        k: r.cluster.region
        for k, r in enumerate(readings)
        if r.cluster.light
        and r.cluster.split_of is None
        and _sure_letter(r, cfg.light_letter_mass)
        and r.cluster.region not in inked
    }
    if len(inked | set(found.values())) < cfg.labelled_fraction * n_regions:
        return set()
    return set(found)


def _unique_letters(readings: list[ClusterReading], cfg: MarksSettings) -> dict[int, str]:
    """The letter of each country that a light whole cluster (with at least
    ``unique_light_mass`` of its posterior on the letters) or a trial split's part (at
    least ``unique_part_mass``) reads as one letter that no other writing of the page
    reads (a cluster's own trial splits aside), by region; a country with two such
    letters has none (see ``unique_light_mass``)."""
    # Each reading's whole cluster (its own index, or its split's), and the whole
    # clusters that read each letter (with their parts).
    roots = [
        k if q.cluster.split_of is None else q.cluster.split_of[0] for k, q in enumerate(readings)
    ]
    readers: dict[str, set[int]] = {}
    for q, root in zip(readings, roots, strict=True):
        if q.letter:
            readers.setdefault(q.letter, set()).add(root)
    found: dict[int, set[str]] = {}
    for r, root in zip(readings, roots, strict=True):
        c = r.cluster
        if not (c.light or c.split_of):
            continue
        least = cfg.unique_light_mass if c.split_of is None else cfg.unique_part_mass
        if least > 1.0 or not _sure_letter(r, least):
            continue
        if readers[r.text] - {root}:
            continue
        found.setdefault(c.region, set()).add(r.text)
    return {region: letters.pop() for region, letters in found.items() if len(letters) == 1}


def _sure_letter(r: ClusterReading, least: float) -> bool:
    """Whether ``r`` reads as one letter with at least ``least`` of its posterior on
    the letters."""
    return len(r.text) == 1 and r.text.isalpha() and r.letter_mass >= least


def _whole_ink(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether ``r`` reads a whole cluster (no part of a split) of the ink mask (no
    light writing) of writing height (``number_min_height``)."""
    c = r.cluster
    return c.split_of is None and not c.light and c.height >= cfg.number_min_height


def _as_number(r: ClusterReading) -> ClusterReading:
    """``r`` read as its likeliest number, the numbers' posterior mass its posterior."""
    return replace(r, text=r.alt_number, probability=r.number_mass)


def _named_by_unique(
    marks: dict[int, CountryMarks], letters: dict[int, str]
) -> dict[int, CountryMarks]:
    """``marks`` of a lettered page with each country that has no letter given its
    letter of ``letters`` (:func:`_unique_letters`) when no country of the page has
    that letter and it comes before the page's last letter read (a page names its
    countries from A on); its number and marks stay."""
    read = {m.letter for m in marks.values() if m.letter}
    if not read:
        return marks
    last = max(read)
    return {
        k: replace(m, letter=letters[k])
        if m.letter is None and k in letters and letters[k] not in read and letters[k] < last
        else m
        for k, m in marks.items()
    }


def _nothing(r: ClusterReading) -> ClusterReading:
    """``r`` read as nothing, with no marks and no letter or number behind it."""
    return replace(
        r,
        text="",
        underlined=0.0,
        crossed=0.0,
        alt_letter="",
        letter_mass=0.0,
        alt_number="",
        number_mass=0.0,
    )


def _named_regions(
    readings: list[ClusterReading], with_letter: set[int], cfg: MarksSettings
) -> set[int]:
    """The regions of a lettered page that hold their letter: those of ``with_letter``
    (a letter reading) and those with two whole number readings of writing height
    (``number_min_height``), one of which is the letter read as a number (see
    ``labelled_fraction``). In these no number is split into a letter and a number by the
    posterior masses (``lettered`` of :func:`resolve_splits`): a "13" beside the letter G
    read 9 is no I and 3. (Marks stage on the cached segmentations of 978d554, the
    seven dev and validation sets: armies +4 (tune 518, fresh2 +3), owner +2, conquered
    +1, letters unchanged (fresh2 +2, dev3 061144 -2: its E read 8 beside another
    number), unoccupied -1.)"""
    counts: dict[int, int] = {}
    for r in readings:
        if r.whole_number and r.cluster.height >= cfg.number_min_height:
            counts[r.cluster.region] = counts.get(r.cluster.region, 0) + 1
    return with_letter | {k for k, n in counts.items() if n >= 2}


def _letter_split(
    cand: list[ClusterReading], cfg: MarksSettings
) -> tuple[ClusterReading, ClusterReading] | None:
    """The trial split of ``cand`` (parts in pairs) likeliest to be a letter beside a
    number by the posterior masses (see ``lettered`` of :func:`resolve_splits`), its
    parts read as that letter and that number; None when none is likely enough."""
    return _letter_and_number(
        cand,
        cfg.split_letter_mass,
        cfg.split_number_mass,
        never=cfg.split_never_letters,
        by_number=False,
    )


def _letter_beside_number(
    cand: list[ClusterReading], cfg: MarksSettings
) -> tuple[ClusterReading, ClusterReading] | None:
    """The trial split of a whole read as one letter (its parts ``cand`` in pairs)
    into a part with at least ``letter_beside_prob`` of its posterior on the letters
    and a part with at least ``letter_beside_number`` on the numbers, read as their
    likeliest letter and number (the split likeliest to hold a number); None when
    there is none."""
    return _letter_and_number(
        cand, cfg.letter_beside_prob, cfg.letter_beside_number, never="", by_number=True
    )


def _letter_and_number(
    cand: list[ClusterReading],
    letter_least: float,
    number_least: float,
    *,
    never: str,
    by_number: bool,
) -> tuple[ClusterReading, ClusterReading] | None:
    """The trial split of ``cand`` (parts in pairs) into a part with at least
    ``letter_least`` of its posterior on the letters (none of ``never`` after the
    number) and a part with at least ``number_least`` on the numbers, read as their
    likeliest letter and number: the split with the most number mass (``by_number``) or
    the most product of the two masses; None when there is none."""
    best: tuple[ClusterReading, ClusterReading] | None = None
    best_p = 0.0
    for a, b in zip(cand[::2], cand[1::2], strict=True):
        for let, num in ((a, b), (b, a)):
            # (A number has no leading 0: a letter of ``never`` before the number is one.)
            barred = let.alt_letter in never and let is not a
            if not let.alt_letter or barred or not num.alt_number:
                continue
            if let.letter_mass < letter_least or num.number_mass < number_least:
                continue
            p = num.number_mass * (1.0 if by_number else let.letter_mass)
            if p > best_p:
                lr = replace(let, text=let.alt_letter, probability=let.letter_mass)
                nr = replace(num, text=num.alt_number, probability=num.number_mass)
                best, best_p = ((lr, nr) if let is a else (nr, lr)), p
    return best


def _kind_mass(r: ClusterReading, cfg: MarksSettings) -> float:
    """The posterior mass of ``r`` on the kind its text is (letters or numbers); its
    text's probability when the reader gives no masses (Tesseract)."""
    mass = r.letter_mass if _kind(r.text, cfg) == "letter" else r.number_mass
    return max(mass, r.probability)


def _kind(text: str, cfg: MarksSettings) -> str:
    if text.isdigit():
        return "number"
    if len(text) == 1 and text.isalpha() and text not in cfg.split_not_letters:
        return "letter"
    return ""


def combine(
    readings: list[ClusterReading],
    settings: MarksSettings | None = None,
    *,
    labelled: bool = False,
    plain: bool = False,
    sparse: bool = False,
) -> CountryMarks:
    """Turn the readings of one region's clusters into the country's marks.

    ``labelled``: the page names its countries with letters (see
    ``MarksSettings.letter_from_numbers``). ``plain``: hardly any letter is read on the
    page (see ``MarksSettings.plain_fraction``); ``sparse``: few are (see
    ``MarksSettings.shaped_fraction``).
    """
    return _combine(readings, settings, labelled=labelled, plain=plain, sparse=sparse)


def _combine(
    readings: list[ClusterReading],
    settings: MarksSettings | None = None,
    *,
    labelled: bool = False,
    plain: bool = False,
    sparse: bool = False,
    owners: dict[int, tuple[ClusterReading, float]] | None = None,
    doubts: dict[int, tuple[float, float]] | None = None,
) -> CountryMarks:
    """:func:`combine`; ``owners``, when given, takes the number reading and the
    evidence of its underline (log-odds over the threshold, see :func:`_pen_owners`)
    by region; ``doubts`` the cross-out probability and the softness of the number
    reading of every region that has one (see :func:`unconquerable_crosses` and
    :func:`balanced_turns`)."""
    cfg = settings or MarksSettings()
    # A speck or a flat stroke read as a digit holds no number (see ``stray_height``).
    readings = [_nothing(r) if _stray(r, cfg) else r for r in readings]
    numbers = [r for r in readings if r.number is not None]
    letters = [r for r in readings if r.letter is not None]
    first = [r for r in numbers if _comes_first(r, cfg)]
    if labelled and len(first) > 1 and not letters:
        # One country, one number: of two number readings that come first (of writing
        # height, or sure) and no letter, the one that reads most like a letter is the
        # country's letter (an "S" read as 5). (A smaller, doubtful one is a fragment.)
        r = max(first, key=lambda r: r.letter_mass)
        ones = [x for x in first if _one_as_i(x, cfg)]
        if len(ones) == 1:
            r = ones[0]
        if r.alt_letter:
            numbers = [n for n in numbers if n is not r]
            letters = [replace(r, text=r.alt_letter, probability=r.letter_mass)]
    if labelled and len(first) == 1 and not letters and cfg.short_letter_mass <= 1.0:
        # A lettered page names every country: beside its one number of writing height,
        # a shorter number reading that could be a letter is the country's name.
        short = [
            x
            for x in numbers
            if not _comes_first(x, cfg) and x.alt_letter and x.letter_mass >= cfg.short_letter_mass
        ]
        if short:
            r = max(short, key=lambda r: r.letter_mass)
            numbers = [n for n in numbers if n is not r]
            letters = [replace(r, text=r.alt_letter, probability=r.letter_mass)]
    if labelled and len(numbers) == 1 and not letters:
        # A lettered page names every country: a country whose only writing reads as a
        # number that carries ``lone_number_letter`` of its posterior on the letters
        # holds only its letter (an unoccupied country's I read as 1, S as 5).
        r = numbers[0]
        if r.alt_letter and r.letter_mass >= cfg.lone_number_letter:
            numbers = []
            letters = [replace(r, text=r.alt_letter, probability=r.letter_mass)]
    if not labelled:
        # A page that names no countries holds no letter beside a number: a reading of
        # a letter and a number ("M4") is a number misread ("14") when the numbers
        # carry ``plain_letter_number`` of its posterior.
        misread = [
            r
            for r in numbers
            if r.letter and r.alt_number.isdigit() and r.number_mass >= cfg.plain_letter_number
        ]
        if misread:
            numbers = [_as_number(r) if any(r is x for x in misread) else r for r in numbers]
            letters = [r for r in letters if not any(r is x for x in misread)]
    if not numbers:
        letters, numbers = _number_among_letters(letters, cfg, labelled=labelled)
    if not numbers and not letters:
        # The numbers together outweigh nothing, though no single one does: see
        # ``nothing_number_pieces``.
        blank = [
            r
            for r in readings
            if not r.text
            and r.alt_number
            and _whole_ink(r, cfg)
            and len(r.cluster.components) <= cfg.nothing_number_pieces
        ]
        if blank:
            r = max(blank, key=lambda r: r.number_mass)
            if r.number_mass >= cfg.nothing_number_mass:
                numbers = [_as_number(r)]
    if not labelled and not numbers and letters and cfg.number_from_letter < 1.0:
        # One country, one number, and this page names no countries: a country whose
        # writing reads only as a letter holds a misread number (a "1" read as I, a "4"
        # as A) when the number readings carry some of the posterior.
        r = max(letters, key=lambda r: r.number_mass)
        least = cfg.number_from_letter
        if plain and r.cluster.height >= cfg.number_min_height:
            least = min(least, cfg.number_from_letter_plain)
        if sparse and r.alt_number.strip("1"):
            # (A 7 read as Z, a 9 as Q: see ``number_from_letter_shaped``.)
            least = min(least, cfg.number_from_letter_shaped)
        if r.alt_number and r.number_mass >= least:
            numbers = [_as_number(r)]
            letters = [x for x in letters if x is not r]
    letter_r = max(letters, key=lambda r: r.probability, default=None)
    if not numbers:
        # How sure we are that none of the clusters is a number.
        conf = min((r.probability for r in readings), default=1.0)
        return CountryMarks(None, False, False, letter_r.letter if letter_r else None, float(conf))
    num = max(numbers, key=lambda r: (_comes_first(r, cfg), r.probability))
    underlined = num.underlined
    crossed = num.crossed
    # A blurred number is read as crossed out too readily: the network's word on it
    # must be surer.
    soft = num.softness > cfg.soft_fraction
    c = crossed > (cfg.soft_cross_threshold if soft else cfg.mark_threshold)
    bar_below = False
    # An underline or cross-out drawn apart from the number forms its own cluster that
    # reads as nothing; it counts where it lies as one: a flat stroke just below the
    # number (an underline, whatever it reads as: a double one reads as "2"), a stroke
    # over the number's box (a cross-out). Elsewhere in the country such a stroke is a
    # piece of border or ruling, whatever the network makes of it on its own.
    for r in readings:
        if r is num:
            continue
        # (A letter under the number is the country's name, not its underline.)
        scale = 1.0
        if cfg.underline_cluster_scaled and (not r.text or r.underlined > cfg.mark_threshold):
            scale = max(1.0, num.cluster.height)
        if _below(r.cluster, num.cluster, cfg, scale) and _kind(r.text, cfg) != "letter":
            underlined = max(underlined, r.underlined)
            bar_below = bar_below or _bar_shaped(r, cfg)
        if r.text:
            continue
        if _over(r.cluster, num.cluster):
            crossed = max(crossed, r.crossed)
            c = c or r.crossed > cfg.mark_threshold
    if doubts is not None:
        doubts[num.cluster.region] = (crossed, num.softness)
    least = cfg.underline_on_border if num.cluster.on_border else cfg.mark_threshold
    if num.cluster.faint:
        least = min(least, cfg.underline_faint)
    u = underlined > least or bar_below
    if owners is not None:
        margin = _logit(underlined) - _logit(least)
        owners[num.cluster.region] = (num, max(margin, 0.0) + 1.0 if bar_below else margin)
    if bar_below:
        underlined = max(underlined, cfg.mark_threshold)
    conf = num.probability * max(underlined, 1 - underlined) * max(crossed, 1 - crossed)
    if len(numbers) > 1:
        conf *= 0.5  # two numbers in one country: something is misread
    letter = letter_r.letter if letter_r else None
    return CountryMarks(num.number, u, c, letter, float(conf))


def _comes_first(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether the number reading ``r`` is among those of its country that come first
    (see ``number_min_height`` and ``sure_short_number``)."""
    number = r.number
    return r.cluster.height >= cfg.number_min_height or (
        number is not None and number >= 10 and r.probability >= cfg.sure_short_number
    )


def _one_as_i(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether ``r`` reads as a lone 1 that could be the letter I (see
    ``MarksSettings.pair_one_letter``)."""
    return r.text == "1" and r.alt_letter == "I" and r.letter_mass >= cfg.pair_one_letter


def _stray(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether ``r`` is a number reading of a stray mark: of one digit and less than
    ``stray_height`` writing heights high, or flat (less than ``number_min_height``
    high and more than ``stray_flat`` times wider than high)."""
    if not r.text.isdigit():
        return False
    x0, y0, x1, y1 = r.cluster.bbox
    h = r.cluster.height
    if h < cfg.number_min_height and x1 - x0 > cfg.stray_flat * (y1 - y0):
        return True
    return len(r.text) == 1 and h < cfg.stray_height


def _enemy_armies(
    marks: dict[int, CountryMarks], adjacency: Sequence[tuple[int, int, float]]
) -> dict[int, int]:
    """The armies of each country's neighbours of the other player together (see
    :func:`enemy_armies`), from the marks read and the measured adjacency."""
    return enemy_armies(
        {k: m.armies for k, m in marks.items()},
        {k: m.underlined for k, m in marks.items()},
        [(i, j) for i, j, _ in adjacency],
    )


def unconquerable_crosses(
    marks: dict[int, CountryMarks],
    adjacency: Sequence[tuple[int, int, float]],
    crosses: dict[int, float],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with the doubtful cross-outs of countries that no order of conquests
    could have conquered taken off (see ``MarksSettings.conquer_doubt``).

    A country is conquered by the adjacent countries of the other player (the
    underline tells whose a number is), with more armies than it holds: one holding at
    least the sum of those neighbours' armies cannot have been. ``crosses``: the
    cross-out probability of the countries read as crossed out, by region index.
    """
    cfg = settings or MarksSettings()
    enemy = _enemy_armies(marks, adjacency)
    out = dict(marks)
    for k, m in marks.items():
        least = cfg.conquer_doubt_alone if enemy.get(k, 0) == 0 else cfg.conquer_doubt
        if (
            m.crossed
            and m.armies is not None
            and crosses.get(k, 1.0) < least
            and m.armies >= enemy.get(k, 0)
        ):
            out[k] = replace(m, crossed=False)
    return out


def placing_crosses(
    marks: dict[int, CountryMarks],
    crosses: dict[int, float],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with no number crossed out when the page looks to be still in the
    second phase: its numbers add up to less than ``MarksSettings.placing_total`` of
    the armies both players place, and it holds at most ``placing_crosses`` numbers
    read as crossed out, each with a cross-out probability (``crosses``, by region
    index; 1 when missing) below ``placing_doubt``.

    Examples
    --------
    >>> marks = {0: CountryMarks(5, True, True, None, 0.9),
    ...          1: CountryMarks(30, False, False, None, 0.9)}
    >>> placing_crosses(marks, {0: 0.8})[0].crossed
    False
    >>> placing_crosses(marks, {0: 0.99})[0].crossed
    True
    """
    cfg = settings or MarksSettings()
    crossed = [k for k, m in marks.items() if m.crossed and m.armies is not None]
    if not crossed or len(crossed) > cfg.placing_crosses:
        return marks
    total = sum(m.armies or 0 for m in marks.values())
    if total >= cfg.placing_total * 2 * ARMIES_PER_PLAYER:
        return marks
    if any(crosses.get(k, 1.0) >= cfg.placing_doubt for k in crossed):
        return marks
    out = dict(marks)
    for k in crossed:
        out[k] = replace(marks[k], crossed=False)
    return out


def balanced_turns(
    marks: dict[int, CountryMarks],
    adjacency: Sequence[tuple[int, int, float]],
    doubts: dict[int, tuple[float, float]],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with one more number crossed out when the players' conquests do not
    alternate (see ``MarksSettings.turn_balance_least``).

    The players conquer in turn, the first player first, so on a page in the last
    phase (some number crossed out) the first player's crossed-out numbers (the
    underlined ones, conquered by the second player) are as many as the second
    player's or one fewer, unless a player passed. When they are more (or two fewer),
    the likeliest missing cross-out of the short side is taken: its number's cross-out
    probability (``doubts``: by region index, that probability and the crop's softness,
    see :func:`_combine`) the highest, at least ``turn_balance_least``, its softness at
    most ``turn_balance_soft``, and its armies fewer than those of its neighbours of
    the other player together (it could have been conquered, see
    :func:`unconquerable_crosses`).

    Examples
    --------
    >>> marks = {0: CountryMarks(5, True, True, None, 0.9),
    ...          1: CountryMarks(3, False, False, None, 0.9)}
    >>> balanced_turns(marks, [(0, 1, 10.0)], {1: (0.4, 0.2)})[1].crossed
    True
    """
    cfg = settings or MarksSettings()
    if cfg.turn_balance_least >= 1.0:
        return marks
    crossed = [m for m in marks.values() if m.crossed and m.armies is not None]
    if not crossed:
        return marks
    first = sum(1 for m in crossed if m.underlined)
    d = first - (len(crossed) - first)
    if d in (0, -1):
        return marks
    short = d < 0  # (the side that needs one more: underlined when True)
    enemy = _enemy_armies(marks, adjacency)
    cand = [
        k
        for k, m in marks.items()
        if not m.crossed
        and m.armies is not None
        and bool(m.underlined) == short
        and k in doubts
        and doubts[k][0] >= cfg.turn_balance_least
        and doubts[k][1] <= cfg.turn_balance_soft
        and m.armies < enemy.get(k, 0)
    ]
    if not cand:
        return marks
    k = max(cand, key=lambda k: doubts[k][0])
    out = dict(marks)
    out[k] = replace(marks[k], crossed=True)
    return out


def hundred_armies(
    marks: dict[int, CountryMarks],
    posteriors: dict[int, NDArray[np.float64]],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with, for each player whose numbers do not add up to the
    ``ARMIES_PER_PLAYER`` armies a player places, the one number that gives that total
    when read otherwise read so, when that reading is likely enough; only on a page in
    the last phase (some number crossed out).

    The numbers of a page in the last phase add up to 100 for each player (a player
    short of it ran out of countries to fill): a player's total off by ``d`` points to
    one number misread by ``d``. Of the player's numbers ``n`` with a posterior for
    ``n + d``, the one where that posterior is highest is read ``n + d`` when it is at
    least ``MarksSettings.hundred_least`` and ``MarksSettings.hundred_ratio`` times the
    posterior of ``n`` (the reading kept); the others are kept. (While the armies are
    being placed the totals are short of 100: such a page is left alone.)

    Parameters
    ----------
    marks : dict of int to CountryMarks
        By region index; the underline tells whose a number is.
    posteriors : dict of int to (100,) float array
        By region index, the posterior of the region's number reading over the numbers
        1-100 (index ``n - 1`` for ``n``); regions without one are never changed.
    settings : MarksSettings, optional

    Returns
    -------
    dict of int to CountryMarks
        ``marks`` with at most one number per player changed (its confidence at most
        that posterior).

    Examples
    --------
    >>> post = np.full(100, 0.001); post[[2, 7]] = [0.6, 0.3]  # "3", maybe "8"
    >>> marks = {0: CountryMarks(92, True, True, None, 0.6),
    ...          1: CountryMarks(3, True, False, None, 0.6)}
    >>> hundred_armies(marks, {1: post})[1].armies
    8
    """
    cfg = settings or MarksSettings()
    if not _last_phase(marks):
        return marks
    out = dict(marks)
    numbers = _player_numbers(marks)
    totals = _player_totals(marks)
    for first in (True, False):
        own = {k: marks[k] for k in numbers[first]}
        d = ARMIES_PER_PLAYER - totals[first]
        best: tuple[float, int] | None = None
        for k in sorted(own):
            n = (own[k].armies or 0) + d
            if d and k in posteriors and 1 <= n <= digits.MAX_ARMIES:
                p = float(posteriors[k][n - 1])
                if p >= cfg.hundred_least and (best is None or p > best[0]):
                    best = (p, k)
        if best is not None:
            p, k = best
            m = own[k]
            kept = m.armies or 0
            if 1 <= kept <= digits.MAX_ARMIES and p < cfg.hundred_ratio * float(
                posteriors[k][kept - 1]
            ):
                continue  # the reading kept is much likelier: the total is off elsewhere
            out[k] = replace(m, armies=kept + d, confidence=min(m.confidence, p))
    return out


def _last_phase(marks: dict[int, CountryMarks]) -> bool:
    """Whether the page is in the last phase: some number is crossed out."""
    return any(m.crossed and m.armies is not None for m in marks.values())


def _player_numbers(marks: dict[int, CountryMarks]) -> dict[bool, list[int]]:
    """The region indices of each player's numbers, by underline (True: the first
    player's), in the order of ``marks``."""
    own: dict[bool, list[int]] = {True: [], False: []}
    for k, m in marks.items():
        if m.armies is not None:
            own[m.underlined].append(k)
    return own


def _player_totals(marks: dict[int, CountryMarks]) -> dict[bool, int]:
    """Each player's armies read, by underline (True: the first player's)."""
    totals = {True: 0, False: 0}
    for m in marks.values():
        totals[m.underlined] += m.armies or 0
    return totals


def hundred_blanks(
    marks: dict[int, CountryMarks],
    blanks: dict[int, list[tuple[NDArray[np.float64], float, float]]],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with, for each player whose numbers add up to ``ARMIES_PER_PLAYER - d``,
    a country with no number read as holding ``d`` when some of its writing read as
    nothing could be that number, likely enough; only on a page in the last phase (some
    number crossed out, see :func:`hundred_armies`).

    A number the reader took for nothing (a broken 5, a light stroke, a number half in
    a border) leaves its country empty and its player short of the 100 armies he
    placed by exactly that number. Of the clusters read as nothing in the countries
    without a number (``blanks``) whose underline tells the short player's (more than
    ``MarksSettings.mark_threshold`` for the first, not for the second), the one with
    the highest posterior of ``d`` is read ``d`` when that posterior is at least
    ``MarksSettings.hundred_blank``; its cross-out as the cluster's probability says.

    Parameters
    ----------
    marks : dict of int to CountryMarks
        By region index.
    blanks : dict of int to list of (array, float, float)
        By region index (countries with no number only), for each cluster read as
        nothing there: its posterior over the numbers 1-100 (index ``n - 1``),
        normalised over the whole closed vocabulary (nothing and letters included), and
        its underline and cross-out probabilities.
    settings : MarksSettings, optional

    Returns
    -------
    dict of int to CountryMarks
        ``marks`` with at most one country per player given a number (its confidence
        that posterior).

    Examples
    --------
    >>> post = np.full(100, 0.001); post[4] = 0.3  # maybe "5"
    >>> marks = {0: CountryMarks(60, False, True, None, 0.9),
    ...          1: CountryMarks(35, False, False, None, 0.9),
    ...          2: CountryMarks(None, False, False, None, 0.9)}
    >>> hundred_blanks(marks, {2: [(post, 0.1, 0.0)]})[2].armies
    5
    """
    cfg = settings or MarksSettings()
    if cfg.hundred_blank > 1.0 or not blanks or not _last_phase(marks):
        return marks
    totals = _player_totals(marks)
    out = dict(marks)
    for first in (True, False):
        d = ARMIES_PER_PLAYER - totals[first]
        if not 1 <= d <= digits.MAX_ARMIES:
            continue
        best: tuple[float, int, float] | None = None
        for k in sorted(blanks):
            if marks[k].armies is not None:
                continue
            for post, under, crossed in blanks[k]:
                p = float(post[d - 1])
                if (under > cfg.mark_threshold) == first and (best is None or p > best[0]):
                    best = (p, k, crossed)
        if best is not None and best[0] >= cfg.hundred_blank:
            p, k, crossed = best
            out[k] = replace(
                marks[k],
                armies=d,
                underlined=first,
                crossed=crossed > cfg.mark_threshold,
                confidence=p,
            )
    return out


def lone_hundred(
    marks: dict[int, CountryMarks], settings: MarksSettings | None = None
) -> dict[int, CountryMarks]:
    """``marks`` with the one number of a player who has placed all his armies read
    100 when it reads as one of ``MarksSettings.hundred_lone``.

    The players place in turn: one with at least ``MarksSettings.hundred_count_gap``
    numbers fewer than the other has no armies left (so in every ground truth of the
    dev and validation photos), and with one number he put all ``ARMIES_PER_PLAYER``
    there: a "100" read as "10" has lost a digit (the network's posterior of 100 on
    such a crop is 1e-4 to 1e-2, too low for :func:`hundred_armies`). (Not "1": a
    sudoku's one cell read as underlined is a 1 far more often than a 100 is read so.)
    "60" and "90" are a "100" too: a "1" leaning on the first "0" reads as a 6, and
    "00" alone (the "1" lost to the borders or to another cluster) has no word of the
    vocabulary but these. (Sixty-third session, marks stage on the cached segmentations
    of d994f82: armies dev3 4478 -> 4481, fresh 1830 -> 1831, fresh2 2461 -> 2462, no
    other count of any set changed; every number 2-99 instead: r3 +1, dev3 +3, fresh
    +1, fresh2 -1.)

    Examples
    --------
    >>> marks = {0: CountryMarks(10, True, False, None, 0.9),
    ...          1: CountryMarks(30, False, False, None, 0.9),
    ...          2: CountryMarks(30, False, False, None, 0.9),
    ...          3: CountryMarks(40, False, False, None, 0.9)}
    >>> lone_hundred(marks)[0].armies
    100
    """
    cfg = settings or MarksSettings()
    gap = cfg.hundred_count_gap
    if gap <= 0 or not cfg.hundred_lone:
        return marks
    own = _player_numbers(marks)
    out = dict(marks)
    for p in (True, False):
        if len(own[p]) == 1 and len(own[not p]) - 1 >= gap:
            k = own[p][0]
            if marks[k].armies in cfg.hundred_lone:
                out[k] = replace(marks[k], armies=ARMIES_PER_PLAYER)
    return out


def hundred_owners(
    marks: dict[int, CountryMarks],
    margins: dict[int, float],
    posteriors: dict[int, NDArray[np.float64]],
    settings: MarksSettings | None = None,
) -> dict[int, CountryMarks]:
    """``marks`` with one number given to the other player when that makes both
    players' numbers add up to ``ARMIES_PER_PLAYER``; only on a page in the last phase
    (some number crossed out, see :func:`hundred_armies`).

    When one player's numbers add up to ``ARMIES_PER_PLAYER + a`` and the other's to
    ``ARMIES_PER_PLAYER - b`` (``a, b > 0``), a number ``a`` of the first player read
    ``b`` is the other's with its underline misread. Of those numbers, the one likeliest
    by its underline's doubt (the logistic of minus its evidence's size) times the
    posterior of ``b`` is given to the other player, read ``b``, when that product is
    at least ``MarksSettings.hundred_owner``; a reading as another number needs a
    posterior of at least ``MarksSettings.hundred_least`` too.

    Parameters
    ----------
    marks : dict of int to CountryMarks
        By region index.
    margins : dict of int to float
        By region index, the evidence of the number's underline (log-odds over the
        threshold, see :func:`_pen_owners`); numbers without one are never moved.
    posteriors : dict of int to (100,) float array
        As for :func:`hundred_armies`; a number without one is moved only as read.
    settings : MarksSettings, optional

    Examples
    --------
    >>> marks = {0: CountryMarks(60, True, True, None, 0.9),
    ...          1: CountryMarks(30, False, False, None, 0.9),
    ...          2: CountryMarks(30, True, False, None, 0.9),
    ...          3: CountryMarks(40, True, False, None, 0.9),
    ...          4: CountryMarks(40, False, False, None, 0.9)}
    >>> hundred_owners(marks, {2: 0.5, 3: 3.0}, {})[2].underlined
    False
    """
    cfg = settings or MarksSettings()
    if not _last_phase(marks):
        return marks
    totals = _player_totals(marks)
    for over in (True, False):
        a = totals[over] - ARMIES_PER_PLAYER
        b = ARMIES_PER_PLAYER - totals[not over]
        if a > 0 and b > 0:
            break
    else:
        return marks
    best: tuple[float, int] | None = None
    for k in sorted(marks):
        m = marks[k]
        if m.armies != a or m.underlined != over or k not in margins:
            continue
        doubt = 1.0 / (1.0 + float(np.exp(abs(margins[k]))))
        if b == a:
            p = 1.0
        elif k in posteriors and 1 <= b <= digits.MAX_ARMIES:
            p = float(posteriors[k][b - 1])
            if p < cfg.hundred_least:
                continue
        else:
            continue
        if doubt * p >= cfg.hundred_owner and (best is None or doubt * p > best[0]):
            best = (doubt * p, k)
    if best is None:
        return marks
    k = best[1]
    out = dict(marks)
    out[k] = replace(marks[k], armies=b, underlined=not over)
    return out


def _number_posteriors(
    marks: dict[int, CountryMarks],
    owners: dict[int, tuple[ClusterReading, float]],
    clusters: list[Cluster],
    likelihoods: NDArray[np.float64],
    letter_part: float = 2.0,
) -> dict[int, NDArray[np.float64]]:
    """The first network's posterior over the numbers 1-100 of each region's number
    reading (``owners``, as :func:`_combine` fills it), by region index: only for the
    players whose numbers do not add up to ``ARMIES_PER_PLAYER`` (see
    :func:`hundred_armies`). ``likelihoods``: the log-likelihoods of the closed
    vocabulary for the crops of ``clusters``, in order (see :func:`read_clusters`).

    A whole cluster's row is the highest of its own posterior and those of its
    trial-split parts beside a part with at least ``letter_part`` of its posterior on
    the letters (see ``MarksSettings.hundred_letter_part``; each part's posterior over
    the numbers normalised over the whole closed vocabulary)."""
    totals = _player_totals(marks)
    index = {id(c): i for i, c in enumerate(clusters)}
    regions = [
        k
        for k, (num, _) in sorted(owners.items())
        if id(num.cluster) in index
        and marks[k].armies is not None
        and totals[marks[k].underlined] != ARMIES_PER_PLAYER
    ]
    if not regions:
        return {}
    rows = [index[id(owners[k][0].cluster)] for k in regions]
    ll = likelihoods[rows, _NUMBERS]
    post = _posteriors(ll)
    out = dict(zip(regions, post, strict=True))
    if letter_part > 1.0:
        return out
    # (The parts of each whole's trial splits by side: left / upper, right / lower.)
    sides: dict[int, tuple[list[int], list[int]]] = {}
    for i, c in enumerate(clusters):
        if c.split_of is not None:
            sides.setdefault(c.split_of[0], ([], []))[c.split_of[1]].append(i)
    for k, row in zip(regions, rows, strict=True):
        if clusters[row].split_of is not None or row not in sides:
            continue
        for i, j in zip(*sides[row], strict=False):
            a, b = _posteriors(likelihoods[[i, j]])
            for num, let in ((a, b), (b, a)):
                if float(let[_NUMBERS.stop :].sum()) >= letter_part:
                    out[k] = np.maximum(out[k], num[_NUMBERS])
    return out


def _blank_posteriors(
    marks: dict[int, CountryMarks],
    by_region: dict[int, list[ClusterReading]],
    clusters: list[Cluster],
    likelihoods: NDArray[np.float64],
) -> dict[int, list[tuple[NDArray[np.float64], float, float]]]:
    """For :func:`hundred_blanks`: by region index, of each country with no number, the
    clusters read as nothing there (``by_region``, as :func:`read_marks` resolves them):
    the first network's posterior over the numbers 1-100 (index ``n - 1``) normalised
    over the whole closed vocabulary, and the reading's underline and cross-out
    probabilities. ``likelihoods``: the log-likelihoods of the closed vocabulary for
    the crops of ``clusters``, in order (see :func:`read_clusters`); only on a page in
    the last phase whose totals are off."""
    totals = _player_totals(marks)
    if all(t == ARMIES_PER_PLAYER for t in totals.values()) or not _last_phase(marks):
        return {}
    index = {id(c): i for i, c in enumerate(clusters)}
    out: dict[int, list[tuple[NDArray[np.float64], float, float]]] = {}
    for k, m in marks.items():
        if m.armies is not None:
            continue
        for r in by_region.get(k, []):
            if r.text or id(r.cluster) not in index:
                continue
            i = index[id(r.cluster)]
            post = _posteriors(likelihoods[i : i + 1])[0]
            out.setdefault(k, []).append((post[_NUMBERS], float(r.underlined), float(r.crossed)))
    return out


def _missing_letters(
    marks: dict[int, CountryMarks],
    by_region: dict[int, list[ClusterReading]],
    owners: dict[int, tuple[ClusterReading, float]],
    cfg: MarksSettings,
) -> dict[int, CountryMarks]:
    """``marks`` of a lettered page with the countries whose only writing is a
    one-digit number that reads as a letter no country of the page has read as their
    letter (below the page's last letter read, with at least ``missing_letter_mass``
    of the posterior on the letters) read as that letter and no number: an unoccupied
    country's letter misread (an S read as 5, an I as 1). A letter that two such
    countries could be is left alone. The countries changed leave ``owners``."""
    read = {m.letter for m in marks.values() if m.letter}
    if not read:
        return marks
    last = max(read)
    found: dict[str, list[tuple[int, ClusterReading]]] = {}
    for k, m in marks.items():
        if m.letter or m.armies is None:
            continue
        rs = by_region.get(k, [])
        nums = [r for r in rs if r.text.isdigit()]
        if len(nums) != 1 or any(r.letter for r in rs):
            continue
        r = nums[0]
        if (
            len(r.text) == 1
            and r.alt_letter
            and r.alt_letter not in read
            and r.alt_letter <= last
            and r.letter_mass >= cfg.missing_letter_mass
        ):
            found.setdefault(r.alt_letter, []).append((k, r))
    out = dict(marks)
    for letter, hits in found.items():
        if len(hits) == 1:
            k, r = hits[0]
            out[k] = CountryMarks(None, False, False, letter, float(r.letter_mass))
            owners.pop(k, None)
    return out


def _number_among_letters(
    letters: list[ClusterReading], cfg: MarksSettings, *, labelled: bool
) -> tuple[list[ClusterReading], list[ClusterReading]]:
    """The letter readings of a country with no number reading, less the one that is
    its number, and that number (a list of none or one).

    On a lettered page, of two or more letter readings of writing height the one with
    most posterior on the numbers is the number: a country holds one letter (an
    underlined 7 reads as Z; see ``letter_pair_number``).
    """
    tall = [r for r in letters if r.cluster.height >= cfg.number_min_height and r.alt_number]
    if not labelled or len(tall) < 2:
        return letters, []
    r = max(tall, key=lambda r: r.number_mass)
    if r.number_mass < cfg.letter_pair_number:
        return letters, []
    return [x for x in letters if x is not r], [_as_number(r)]


def _below(mark: Cluster, num: Cluster, cfg: MarksSettings, scale: float = 1.0) -> bool:
    """Whether ``mark`` lies as an underline of ``num`` (boxes in the writing's frame; see
    ``MarksSettings.underline_gap`` and ``underline_cluster_height``, the latter times
    ``scale``: see ``underline_cluster_scaled``)."""
    mx0, my0, mx1, my1 = mark.bbox
    nx0, ny0, nx1, ny1 = num.bbox
    text_h = num.text_h
    overlap = min(mx1, nx1) - max(mx0, nx0)
    return (
        mark.height <= cfg.underline_cluster_height * scale
        and overlap >= 0.5 * min(mx1 - mx0, nx1 - nx0)
        and mx1 - mx0 <= cfg.underline_cluster_width * (nx1 - nx0)
        and my0 >= (ny0 + ny1) / 2
        and my0 - ny1 <= cfg.underline_gap * text_h
    )


def _mark_on_border(
    readings: list[ClusterReading], borders: NDArray[np.bool_], cfg: MarksSettings
) -> list[ClusterReading]:
    """``readings`` with the clusters of their number readings marked ``on_border`` when
    border ink lies under at least ``underline_border_cover`` of their width, within
    ``underline_border_reach`` writing heights of their box's bottom (from
    ``underline_border_inside`` inside it). ``borders``: in the clusters' frame."""
    if cfg.underline_on_border >= cfg.mark_threshold:
        return readings
    hh, ww = borders.shape
    out = []
    for r in readings:
        if r.number is None:
            out.append(r)
            continue
        x0, y0, x1, y1 = r.cluster.bbox
        text_h = r.cluster.text_h
        top = max(0, int(round(y1 - cfg.underline_border_inside * text_h)))
        bottom = min(hh, int(round(y1 + cfg.underline_border_reach * text_h)) + 1)
        cover = _cover(borders[top:bottom, max(0, x0) : min(ww, x1)], across=0)
        if cover >= cfg.underline_border_cover and not _boxed_in(
            borders, r.cluster.bbox, text_h, cfg
        ):
            r = replace(r, cluster=replace(r.cluster, on_border=True))
        out.append(r)
    return out


def _boxed_in(
    borders: NDArray[np.bool_], bbox: tuple[int, int, int, int], text_h: float, cfg: MarksSettings
) -> bool:
    """Whether border ink closes round the box ``bbox`` above (within
    ``underline_border_reach`` writing heights) and on both sides (within
    ``underline_border_side``), each along at least ``underline_border_boxed`` of the
    box's width or height: a number in a cell of its own (a sudoku's), whose border
    below is no sign of an underline."""
    hh, ww = borders.shape
    x0, y0, x1, y1 = bbox
    inside = int(round(cfg.underline_border_inside * text_h))
    reach = int(round(cfg.underline_border_reach * text_h))
    side = int(round(cfg.underline_border_side * text_h))
    rows = slice(max(0, y0), min(hh, y1))
    above = borders[max(0, y0 - reach) : max(0, y0 + inside + 1), max(0, x0) : min(ww, x1)]
    left = borders[rows, max(0, x0 - side) : max(0, x0 + inside + 1)]
    right = borders[rows, max(0, x1 - inside) : min(ww, x1 + side + 1)]
    covers = (_cover(above, across=0), _cover(left, across=1), _cover(right, across=1))
    return min(covers) >= cfg.underline_border_boxed


def _cover(band: NDArray[np.bool_], across: int) -> float:
    """Share of ``band``'s columns (``across=0``) or rows (``across=1``) holding any
    border ink; 0 for an empty band."""
    return float(band.any(axis=across).mean()) if band.size else 0.0


def _bar_shaped(r: ClusterReading, cfg: MarksSettings) -> bool:
    """Whether reading ``r`` (a cluster lying below a number, see :func:`_below`) is
    shaped as an underline: no letter, flat and wide (``underline_bar_ratio``), not a
    sliver (``underline_bar_height``)."""
    x0, y0, x1, y1 = r.cluster.bbox
    return (
        _kind(r.text, cfg) != "letter"
        and r.cluster.height >= cfg.underline_bar_height
        and x1 - x0 >= cfg.underline_bar_ratio * (y1 - y0)
    )


def _over(mark: Cluster, num: Cluster) -> bool:
    """Whether ``mark`` covers at least half of ``num``'s box (a detached cross-out)."""
    mx0, my0, mx1, my1 = mark.bbox
    nx0, ny0, nx1, ny1 = num.bbox
    ix = max(0, min(mx1, nx1) - max(mx0, nx0))
    iy = max(0, min(my1, ny1) - max(my0, ny0))
    return ix * iy >= 0.5 * (nx1 - nx0) * (ny1 - ny0)


def _logit(p: float) -> float:
    """Log-odds of probability ``p`` (clipped off 0 and 1, as :func:`_logits`)."""
    return float(_logits(np.asarray(p))[()])


def _sigmoid(z: float) -> float:
    """The probability of log-odds ``z`` (the inverse of :func:`_logit`)."""
    return float(1.0 / (1.0 + np.exp(-z)))


def _page_matrix(
    turn: float,
    origin: tuple[int, int],
    window: tuple[int, ...],
    page: tuple[int, ...],
) -> NDArray[np.float64]:
    """The affine map (2, 3) from the clusters' frame back to the page's: the identity
    for an unturned page (its boxes are put back in the page's frame), else the inverse
    of :func:`_rotate_window`'s turn of the window at ``origin`` of shape ``window``
    (:func:`_window_turn`)."""
    if not turn:
        return np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    mw, _ = _window_turn(origin, window, page, turn)
    back = np.asarray(cv2.invertAffineTransform(mw), np.float64)
    back[:, 2] += origin  # (the window's frame to the page's)
    return back


_PEN_SAMPLES = 100


def _ink_colours(
    crops: list[NDArray[np.float32]],
    origins: list[tuple[int, int]],
    image: NDArray[np.uint8],
    back: NDArray[np.float64],
    cfg: MarksSettings,
) -> list[NDArray[np.float64] | None]:
    """The log transmittance (B, G, R) of each cluster's ink: the median colour of its
    darkest pixels (``pen_ink`` of the crop's darkness or more) over the median of its
    paper (the crop's pixels without ink), sampled in ``image`` through ``back`` (the
    clusters' frame to the page's); None with too few pixels."""
    xs: list[NDArray[np.intp]] = []
    ys: list[NDArray[np.intp]] = []
    for crop, (ox, oy) in zip(crops, origins, strict=True):
        # (Every other pixel of the ink, every fourth of the paper, at most
        # ``_PEN_SAMPLES`` of each evenly spread: medians of many.)
        for step, part in (
            (2, crop[::2, ::2] >= cfg.pen_ink),
            (4, crop[::4, ::4] <= cfg.pen_paper),
        ):
            y, x = np.nonzero(part)
            k = max(1, -(-y.size // _PEN_SAMPLES))
            ys.append(step * y[::k] + oy)
            xs.append(step * x[::k] + ox)
    sizes = [y.size for y in ys]
    x = np.concatenate(xs).astype(np.float64)
    y = np.concatenate(ys).astype(np.float64)
    hh, ww = image.shape[:2]
    c = np.clip(np.rint(back[0, 0] * x + back[0, 1] * y + back[0, 2]).astype(np.intp), 0, ww - 1)
    r = np.clip(np.rint(back[1, 0] * x + back[1, 1] * y + back[1, 2]).astype(np.intp), 0, hh - 1)
    colours = image[r, c].astype(np.float64)
    out: list[NDArray[np.float64] | None] = []
    start = 0
    for i in range(0, len(sizes), 2):
        ink_n, paper_n = sizes[i], sizes[i + 1]
        ink = colours[start : start + ink_n]
        paper = colours[start + ink_n : start + ink_n + paper_n]
        start += ink_n + paper_n
        if ink_n < 4 or paper_n < 4:
            out.append(None)
            continue
        out.append(np.log((np.median(ink, axis=0) + 1.0) / (np.median(paper, axis=0) + 1.0)))
    return out


def _pen_owners(
    marks: dict[int, CountryMarks],
    owners: dict[int, tuple[ClusterReading, float]],
    clusters: list[Cluster],
    crops: list[NDArray[np.float32]],
    image: NDArray[np.uint8],
    back: NDArray[np.float64],
    cfg: MarksSettings,
) -> dict[int, CountryMarks]:
    """``marks`` with the owners decided by the players' pens as well, where the page's
    numbers read as underlined and those read as not are written in inks of two clearly
    different colours (see ``MarksSettings.pen_owner_separation``)."""
    where = {(c.bbox, c.split_of): i for i, c in enumerate(clusters)}
    regions: list[int] = []
    margins: list[float] = []
    feats: list[NDArray[np.float64]] = []
    picked = [
        (reg, margin, where[key])
        for reg, (num, margin) in owners.items()
        if (key := (num.cluster.bbox, num.cluster.split_of)) in where
    ]
    if len(picked) < 4:
        return marks
    colours = _ink_colours(
        [crops[i] for _, _, i in picked],
        [clusters[i].origin for _, _, i in picked],
        image,
        back,
        cfg,
    )
    for (reg, margin, _), f in zip(picked, colours, strict=True):
        if f is not None:
            regions.append(reg)
            margins.append(margin)
            feats.append(f)
    if len(regions) < 4:
        return marks
    m = np.asarray(margins)
    f = np.asarray(feats)
    odds = _pen_odds(f, m > 0, cfg)
    if odds is None and cfg.pen_shade_floor > 0:
        odds = _pen_odds(_ink_shades(f, cfg.pen_shade_floor), m > 0, cfg)
    if odds is None:
        return marks
    out = dict(marks)
    for reg, mi, ci in zip(regions, m, odds, strict=True):
        u = bool(mi + ci > 0)
        if u != marks[reg].underlined:
            out[reg] = replace(marks[reg], underlined=u)
    return out


def _ink_shades(f: NDArray[np.float64], floor: float) -> NDArray[np.float64]:
    """The inks' colours ``f`` (n, 3: log transmittance B, G, R) as darkness and hue:
    the log of the mean darkness (at least ``floor``), and the blue and green over the
    red, each over the mean darkness. Two pens that differ mostly in how dark they
    write (pencil, felt), or in a hue the darkness hides (a blue and a black
    ballpoint), lie apart here where the raw colours' two means split one pen's
    lighter and darker numbers instead."""
    dark = np.maximum(-f.mean(axis=1), floor)
    hue = f / dark[:, None]
    return np.stack([np.log(dark), hue[:, 0] - hue[:, 2], hue[:, 1] - hue[:, 2]], axis=1)


def _pen_odds(
    f: NDArray[np.float64], first: NDArray[np.bool_], cfg: MarksSettings
) -> NDArray[np.float64] | None:
    """Log-odds that each number is the first player's by its ink colour ``f`` (n, 3),
    or None when the colours do not tell the players apart.

    The numbers are split in two by colour alone (two means); the split counts when
    the two inks lie ``pen_owner_separation`` apart (Mahalanobis, the spread within
    each at least ``pen_owner_spread``), each holds ``pen_owner_least`` numbers, and at
    least ``pen_owner_agree`` of the numbers are read as underlined (``first``) in one
    and as not in the other (``pen_owner_far_agree`` for inks ``pen_owner_far`` apart;
    and most of each ink's numbers so): the players write with different pens. The odds
    are the linear discriminant between the two inks, at most ``pen_owner_cap``.
    """
    n = len(f)
    centred = f - f.mean(axis=0)
    axis = np.linalg.svd(centred, full_matrices=False)[2][0]
    side = centred @ axis > 0
    for _ in range(10):
        if side.all() or not side.any():
            return None
        a, b = f[side].mean(axis=0), f[~side].mean(axis=0)
        new = np.sum((f - a) ** 2, axis=1) < np.sum((f - b) ** 2, axis=1)
        if (new == side).all():
            break
        side = new
    if min(int(side.sum()), int((~side).sum())) < cfg.pen_owner_least:
        return None
    a, b = f[side].mean(axis=0), f[~side].mean(axis=0)
    resid = np.concatenate([f[side] - a, f[~side] - b])
    cov = resid.T @ resid / max(1, n - 2) + cfg.pen_owner_spread**2 * np.eye(f.shape[1])
    w = np.linalg.solve(cov, a - b)
    apart = float(np.sqrt((a - b) @ w))
    if apart < cfg.pen_owner_separation:
        return None
    if np.mean(side == first) < 0.5:
        w, side = -w, ~side
    agree = cfg.pen_owner_agree
    if apart >= cfg.pen_owner_far:
        agree = min(agree, cfg.pen_owner_far_agree)
    # (Most of each ink's numbers read as its owner's, and most numbers all told.)
    if (
        np.mean(first[side]) <= 0.5
        or np.mean(first[~side]) >= 0.5
        or np.mean(side == first) < agree
    ):
        return None
    odds = (f - (a + b) / 2) @ w
    return np.asarray(np.clip(odds, -cfg.pen_owner_cap, cfg.pen_owner_cap), np.float64)
