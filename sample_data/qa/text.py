"""The facts behind the QA sample: five themes, six subjects each (all invented).

Every subject is a dict of facts. ``paragraph(theme, facts)`` writes its paragraph;
``QUESTIONS[theme]`` lists (question template, accepted-answer templates) pairs that the
paragraph answers, and ``UNANSWERABLE[theme]`` one question that it does not. The
``overview`` sentence of each subject goes into the theme's overview paragraph, so some
questions are answered by two paragraphs.
"""

from __future__ import annotations

THEMES = ("astronomy", "cooking", "lighthouses", "music", "rivers")

FACTS: dict[str, list[dict[str, str]]] = {
    "astronomy": [
        dict(name="Karsk Ridge", site="a bare ridge above the Veldan salt flats", year="1911",
             founder="Ilse Mårren", mirror="2.4 metres", known="the first map of the Tessel comet's two tails"),
        dict(name="Hollow Pine", site="a forest clearing in the Orrin hills", year="1887",
             founder="Tobias Grell", mirror="90 centimetres", known="timing the eclipses of Jupiter's moons"),
        dict(name="Sable Bay", site="a headland over Sable Bay", year="1954", founder="Ada Quennell",
             mirror="3.1 metres", known="finding the faint dwarf galaxy called Quennell's Veil"),
        dict(name="Mount Ilvo", site="the summit of Mount Ilvo", year="1972", founder="Rafael Osté",
             mirror="4 metres", known="a survey of two thousand variable stars"),
        dict(name="Greywater", site="the edge of the Greywater marshes", year="1899", founder="Edith Lowe",
             mirror="60 centimetres", known="photographing the great meteor shower of 1901"),
        dict(name="Tarn Hollow", site="a dry valley below Tarn Peak", year="2003", founder="Søren Vik",
             mirror="6.5 metres", known="measuring the spin of the pulsar Vik-7"),
    ],
    "cooking": [
        dict(name="Harrowby stew", region="the Harrowby uplands", ingredient="mutton", time="six hours",
             side="oat bread", story="Shepherds once left it by the fire overnight"),
        dict(name="Pell fish pie", region="the harbour town of Pell", ingredient="smoked haddock", time="forty minutes",
             side="buttered peas", story="It was sold from carts on market days"),
        dict(name="Colm dumplings", region="the Colm valley", ingredient="buckwheat flour", time="twelve minutes",
             side="sour cream", story="Families fold hundreds of them before the winter fair"),
        dict(name="Miravel rice", region="the island of Miravel", ingredient="saffron rice", time="half an hour",
             side="grilled squid", story="Fishermen's wives cooked it in wide iron pans"),
        dict(name="Tavish broth", region="the Tavish lowlands", ingredient="barley", time="three hours",
             side="rye crackers", story="Monks at the old abbey are said to have invented it"),
        dict(name="Brenn cake", region="the mill town of Brenn", ingredient="ground almonds", time="an hour",
             side="stewed plums", story="Łucja Brenn baked it for the first mill feast"),
    ],
    "lighthouses": [
        dict(name="Carrow Point", place="the northern cape of Isle Varne", year="1843", height="38 metres",
             keeper="Mara Holt", light="a white flash every ten seconds"),
        dict(name="Fennick Rock", place="a bare reef off the Fennick coast", year="1867", height="45 metres",
             keeper="Jonah Pryce", light="two red flashes every fifteen seconds"),
        dict(name="Old Sallow", place="the mouth of the Sallow estuary", year="1791", height="21 metres",
             keeper="Bess Armitage", light="a steady green light"),
        dict(name="Kestrel Head", place="the cliffs of Kestrel Head", year="1902", height="27 metres",
             keeper="Ewan Tully", light="three white flashes every twenty seconds"),
        dict(name="Gannet Isle", place="the smallest of the Gannet islands", year="1858", height="33 metres",
             keeper="Ruth Calder", light="a white flash every five seconds"),
        dict(name="Dunmore Spit", place="the end of a long shingle spit near Dunmore", year="1925",
             height="18 metres", keeper="Pádraig Nolan", light="a red light that blinks once a second"),
    ],
    "music": [
        dict(name="vellar", family="bowed string", origin="the mountain villages of Ostra", wood="walnut",
             strings="five strings", n="five", player="Anja Roth", feat="played it in every capital of Europe"),
        dict(name="kettle harp", family="plucked string", origin="the fishing towns of the Morrow coast",
             wood="pear wood", strings="twenty-two strings", n="twenty-two", player="Colin Marsh",
             feat="recorded the first album of harp reels"),
        dict(name="drone lute", family="plucked string", origin="the river plains of Essen", wood="cedar",
             strings="seven strings", n="seven", player="Mehmet Arslan", feat="taught at the Essen conservatory"),
        dict(name="tallow fiddle", family="bowed string", origin="the coal valleys of Tallow", wood="spruce",
             strings="four strings", n="four", player="Nell Gowan", feat="wrote more than two hundred dance tunes"),
        dict(name="reed zither", family="plucked string", origin="the marsh country of Lenn", wood="willow",
             strings="thirty strings", n="thirty", player="Iker Zubiri", feat="revived it after a century of silence"),
        dict(name="bass cittern", family="plucked string", origin="the port of Arvik", wood="maple",
             strings="ten strings", n="ten", player="Hélène Dufay", feat="led the Arvik festival band for thirty years"),
    ],
    "rivers": [
        dict(name="Aller", source="the slopes of Mount Brae", length="412 kilometres", mouth="the Grey Sea",
             city="Holmstead", feature="Its lower course is lined with old water mills"),
        dict(name="Quenn", source="a spring in the Dask forest", length="187 kilometres", mouth="Lake Orrow",
             city="Quennbridge", feature="Barges still carry timber down it every spring"),
        dict(name="Sorrel", source="the glaciers of the Tine range", length="655 kilometres",
             mouth="the Bay of Marr", city="Port Sorrel", feature="It floods the Marr meadows almost every April"),
        dict(name="Wend", source="the peat bogs of High Wend", length="96 kilometres", mouth="the river Sorrel",
             city="Wendham", feature="Otters returned to it after the old tannery closed"),
        dict(name="Ilse", source="Lake Ilsmere", length="240 kilometres", mouth="the Narrow Sea", city="Ilsford",
             feature="A chain of nine locks lifts boats past the Ilsford falls"),
        dict(name="Río Calmo", source="the Sierra Parda", length="330 kilometres", mouth="the Gulf of Cerro",
             city="San Ildo", feature="Its name means calm river, though its gorge is anything but"),
    ],
}

PARAGRAPHS = {
    "astronomy": ("The {name} Observatory sits on {site}. It was founded in {year} by {founder}, who chose the "
                  "place for its dry, still air. Its main telescope has a mirror {mirror} across. Astronomers "
                  "there are best known for {known}."),
    "cooking": ("{Name} is a dish from {region}. It is made mainly from {ingredient} and cooks for {time}. It is "
                "traditionally served with {side}. {story}."),
    "lighthouses": ("The {name} lighthouse stands on {place}. It was first lit in {year} and its tower rises "
                    "{height} above the rocks. For most of its working life the keeper was {keeper}, who logged "
                    "every passing ship. Its lamp shows {light}."),
    "music": ("The {name} is a {family} instrument from {origin}. Its body is carved from {wood} and it has "
              "{strings}. Its best-known player was {player}, who {feat}."),
    "rivers": ("The {name} rises on {source} and flows for {length} before it reaches {mouth}. The largest city "
               "on its banks is {city}. {feature}."),
}

OVERVIEW = {
    "astronomy": ("Observatories of the northern survey, in brief.", "The {name} Observatory opened in {year}."),
    "cooking": ("Regional dishes at a glance.", "{Name} comes from {region}."),
    "lighthouses": ("A short guide to the lights of the western coast.", "{name} was first lit in {year}."),
    "music": ("Folk instruments of the northern countries.", "The {name} has {strings}."),
    "rivers": ("The main rivers of the region, in brief.", "The {name} is {length} long."),
}

#: (question template, accepted answers, answered by the overview too)
QUESTIONS: dict[str, list[tuple[str, tuple[str, ...], bool]]] = {
    "astronomy": [
        ("Who founded the {name} Observatory?", ("{founder}",), False),
        ("In which year was the {name} Observatory founded?", ("{year}", "in {year}"), True),
        ("How wide is the mirror of the main telescope at {name}?", ("{mirror}",), False),
        ("What are the astronomers of the {name} Observatory best known for?", ("{known}",), False),
    ],
    "cooking": [
        ("What is the main ingredient of {name}?", ("{ingredient}",), False),
        ("How long does {name} cook?", ("{time}", "for {time}"), False),
        ("What is {name} traditionally served with?", ("{side}",), False),
        ("Where does {name} come from?", ("{region}",), True),
    ],
    "lighthouses": [
        ("When was the {name} lighthouse first lit?", ("{year}", "in {year}"), True),
        ("How tall is the tower of the {name} lighthouse?", ("{height}",), False),
        ("Who was the keeper of the {name} lighthouse for most of its working life?", ("{keeper}",), False),
        ("What does the lamp of the {name} lighthouse show?", ("{light}",), False),
    ],
    "music": [
        ("How many strings does the {name} have?", ("{strings}", "{n}"), True),
        ("What wood is the body of the {name} carved from?", ("{wood}",), False),
        ("Who was the best-known player of the {name}?", ("{player}",), False),
        ("Where does the {name} come from?", ("{origin}",), False),
    ],
    "rivers": [
        ("How long is the {name}?", ("{length}",), True),
        ("Where does the {name} rise?", ("{source}",), False),
        ("Where does the {name} end?", ("{mouth}",), False),
        ("What is the largest city on the {name}?", ("{city}",), False),
    ],
}

UNANSWERABLE = {
    "astronomy": "How many people work at the {name} Observatory today?",
    "cooking": "Who first wrote down the recipe for {name}?",
    "lighthouses": "Who designed the {name} lighthouse?",
    "music": "How much does a new {name} cost?",
    "rivers": "How deep is the {name} at its mouth?",
}


def fill(template: str, facts: dict[str, str]) -> str:
    """The template with the facts filled in (``{Name}``: the name with a capital letter)."""
    name = facts["name"]
    return template.format(**facts, Name=name[:1].upper() + name[1:])
