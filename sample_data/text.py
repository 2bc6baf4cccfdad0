"""Sentence material for the synthetic essays of the sample competition.

Every discourse element is assembled from sentences that sound like its type: a Lead
introduces the topic, a Position states the writer's stance, a Claim asserts a reason,
Evidence cites an example or a fact, a Counterclaim concedes the other side, a Rebuttal
answers it and a Concluding Statement sums up. Elements labelled ``Ineffective`` mix in
vague sentences, as weak student writing does. All text is written for this project.

Only plain lists and tuples live here (no sets or dicts iterated for choices), so that the
generator draws the same sentences for the same seed everywhere.
"""

from __future__ import annotations

# Each topic: subject, a question, stances for and against, reasons (clauses) for each side,
# and facts that can serve as evidence for each side.
TOPICS: tuple[dict, ...] = (
    {
        "subject": "online school",
        "question": "whether students should be able to attend classes from home",
        "pro": "students should be allowed to take their classes from home",
        "con": "students learn better when they come to school in person",
        "pro_reasons": (
            "online classes let students learn at their own pace",
            "students who have jobs can still finish their education",
            "students who are sick do not fall behind",
            "learning from home saves the time spent on the bus every day",
        ),
        "con_reasons": (
            "students at home get distracted by phones and television",
            "teachers cannot see when a student is confused",
            "students need to spend time with friends to grow up",
            "many families do not have a fast internet connection",
        ),
        "pro_facts": (
            "a student can watch a recorded lesson again when the first time was too fast",
            "some schools already offer evening courses that students take on a laptop",
            "attendance went up at one school when classes were offered online",
            "my cousin finished two math courses online while working at a grocery store",
        ),
        "con_facts": (
            "during the school closures many students stopped turning in their homework",
            "a teacher in the classroom can walk over and help a student right away",
            "students who study alone for months often feel lonely",
            "my neighbor had to sit in a parking lot to use the library wifi",
        ),
    },
    {
        "subject": "driverless cars",
        "question": "whether driverless cars should be allowed on our roads",
        "pro": "driverless cars should be allowed on public roads",
        "con": "driverless cars are not ready to share the road with people",
        "pro_reasons": (
            "computers do not get tired or distracted like human drivers",
            "driverless cars could help elderly people get around on their own",
            "self driving cars could make traffic move more smoothly",
            "fewer accidents would mean fewer people getting hurt",
        ),
        "con_reasons": (
            "the sensors can fail in rain or snow",
            "nobody knows who is responsible when a driverless car crashes",
            "many people who drive for a living would lose their jobs",
            "a computer can be hacked by someone who wants to cause harm",
        ),
        "pro_facts": (
            "most car crashes are caused by human mistakes such as texting or speeding",
            "the car uses cameras and radar to watch every direction at once",
            "my grandmother stopped driving last year and now she has to wait for rides",
            "test cars have already driven millions of miles on real streets",
        ),
        "con_facts": (
            "the cars still need a human who is ready to take the wheel",
            "a test car once failed to see a truck against a bright sky",
            "truck drivers and taxi drivers make up a large number of jobs",
            "my uncle says his phone loses its signal on the highway all the time",
        ),
    },
    {
        "subject": "community service",
        "question": "whether every student should have to do community service",
        "pro": "every student should be required to do community service",
        "con": "community service should be a choice and not a requirement",
        "pro_reasons": (
            "helping others teaches students to be responsible",
            "students can discover what kind of job they might want later",
            "community service makes the town a better place for everyone",
            "volunteering looks good on college applications",
        ),
        "con_reasons": (
            "many students already have too much homework",
            "some students have to take care of younger brothers and sisters",
            "forcing people to help takes away the meaning of helping",
            "students who work after school do not have free time",
        ),
        "pro_facts": (
            "when our class cleaned the park we found bags of trash by the river",
            "my sister volunteered at an animal shelter and now she wants to be a vet",
            "volunteers say they feel happier and more connected to their town",
            "the food bank in our town needs dozens of helpers every weekend",
        ),
        "con_facts": (
            "I have about three hours of homework every night",
            "my friend takes care of his little brother until his mom gets home",
            "some students only sign up to get the hours done and learn nothing",
            "many students already work part time jobs on the weekends",
        ),
    },
    {
        "subject": "cell phones in school",
        "question": "whether students should be allowed to use phones during the school day",
        "pro": "students should be allowed to use their phones at school",
        "con": "phones should be put away during the school day",
        "pro_reasons": (
            "phones can be used to look things up for class",
            "students need to reach their parents in an emergency",
            "learning to use technology responsibly is an important skill",
            "phones help students keep track of their assignments",
        ),
        "con_reasons": (
            "phones distract students from what the teacher is saying",
            "students use phones to cheat on tests",
            "social media during class can lead to bullying",
            "students talk to each other less when they are on their phones",
        ),
        "pro_facts": (
            "in science class we used our phones to measure the speed of a ball",
            "when there was a storm last year my mom needed to tell me where to meet her",
            "many teachers post homework on an app that students check on their phones",
            "almost every job today asks workers to use some kind of technology",
        ),
        "con_facts": (
            "I have seen students scroll through videos while the teacher explains the lesson",
            "one student in my class was caught looking up answers during a quiz",
            "grades went up at a school that banned phones in class",
            "at lunch whole tables of students sit together without saying a word",
        ),
    },
    {
        "subject": "the four day school week",
        "question": "whether schools should switch to a four day week",
        "pro": "schools should switch to a four day week",
        "con": "schools should keep the five day week",
        "pro_reasons": (
            "students would come back rested and ready to learn",
            "schools would save money on buses and electricity",
            "families would have more time to spend together",
            "teachers could use the extra day to plan better lessons",
        ),
        "con_reasons": (
            "the school days would have to be much longer",
            "parents who work would need to find childcare on the extra day",
            "some students get their only good meal at school",
            "students would forget more of what they learned",
        ),
        "pro_facts": (
            "some rural districts saved a lot of money after switching",
            "on Mondays half of my class is still tired from the weekend",
            "my aunt teaches at a school with a four day week and says her students are happier",
            "doctor and dentist visits could happen on the day off instead of during class",
        ),
        "con_facts": (
            "a longer day means students would stay until almost five o clock",
            "daycare costs a lot of money for families with young children",
            "many students eat breakfast and lunch at school every day",
            "after summer break it takes weeks to remember how to do math",
        ),
    },
    {
        "subject": "exploring Venus",
        "question": "whether studying Venus is worth the danger and the cost",
        "pro": "studying Venus is worth the danger and the cost",
        "con": "scientists should spend their money on other missions",
        "pro_reasons": (
            "Venus is the planet most similar to Earth",
            "learning about Venus could help us understand climate change",
            "new technology built for Venus could be useful on Earth",
            "exploring difficult places is how science makes progress",
        ),
        "con_reasons": (
            "the surface of Venus is hot enough to melt lead",
            "the pressure on Venus crushes most machines in a few hours",
            "the money could help people who need it right now",
            "other planets like Mars are much easier to study",
        ),
        "pro_facts": (
            "Venus may once have been covered with oceans like ours",
            "there is a plan to float a research vehicle above the clouds",
            "scientists are testing electronics made of silicon carbide that survive the heat",
            "the first landers sent back pictures before they stopped working",
        ),
        "con_facts": (
            "the temperature on the surface is over eight hundred degrees",
            "no spacecraft has survived on the surface for more than a few hours",
            "a single space mission can cost more than a billion dollars",
            "rovers on Mars have been working for years at a time",
        ),
    },
    {
        "subject": "extracurricular activities",
        "question": "whether every student should join at least one activity after school",
        "pro": "every student should take part in at least one extracurricular activity",
        "con": "students should decide for themselves whether to join an activity",
        "pro_reasons": (
            "activities help students make new friends",
            "sports and clubs teach teamwork and leadership",
            "students who join activities feel more connected to school",
            "activities give students a break from screens",
        ),
        "con_reasons": (
            "some students need that time for homework",
            "not every family can afford the fees and equipment",
            "some students have jobs or chores at home",
            "a student forced into a club will not enjoy it",
        ),
        "pro_facts": (
            "when I joined the robotics club I met my best friend",
            "our soccer coach makes the older players help the new ones",
            "students in clubs tend to have better attendance",
            "my brother was shy until he joined the drama club",
        ),
        "con_facts": (
            "band costs over two hundred dollars a year for the instrument rental",
            "my friend works at his family restaurant every afternoon",
            "I tried the chess club once and only went because my parents made me",
            "practice often ends after dark and some students have no ride home",
        ),
    },
    {
        "subject": "the summer reading project",
        "question": "whether summer projects should be designed by teachers or by students",
        "pro": "summer projects should be designed by the students",
        "con": "summer projects should be designed by the teachers",
        "pro_reasons": (
            "students work harder on topics they actually care about",
            "choosing a project teaches students to plan on their own",
            "students know their own interests better than anyone",
            "a student designed project feels less like homework",
        ),
        "con_reasons": (
            "teachers know what students need to learn for next year",
            "some students would pick the easiest project possible",
            "teacher designed projects are fair to grade",
            "students need clear instructions when the teacher is not around",
        ),
        "pro_facts": (
            "last summer I built a bird feeder and wrote about the birds that visited",
            "students remember more when they get to choose the topic",
            "my friend made a cooking video series and learned to write scripts",
            "students who pick their own books read more pages over the break",
        ),
        "con_facts": (
            "my little brother turned in a project that took him ten minutes",
            "teachers plan projects around the lessons of next year",
            "when the rules are the same for everyone the grades are easier to compare",
            "over the summer nobody is there to answer questions about the assignment",
        ),
    },
)

# Sentence templates. Slots: {subject}, {question}, {stance}, {other}, {reason}, {fact},
# {opp_reason}. A template is formatted, then its first letter capitalised.
LEAD = (
    "Have you ever thought about {question}?",
    "Many people today are talking about {subject}.",
    "{subject} has become a big topic in schools across the country.",
    "Some people love the idea and other people cannot stand it.",
    "It is a question that affects students, parents and teachers alike.",
    "Not long ago nobody would have even asked {question}.",
    "Imagine waking up one morning and finding that everything about {subject} had changed.",
    "Everyone seems to have an opinion about {subject}, and the arguments can get heated.",
)
LEAD_VAGUE = (
    "This essay is about {subject}.",
    "There are a lot of things to say about this topic.",
    "I am going to write about it now.",
)
POSITION = (
    "I believe that {stance}.",
    "In my opinion, {stance}.",
    "I strongly think that {stance}.",
    "After thinking about both sides, I believe {stance}.",
    "It is clear to me that {stance}.",
)
POSITION_VAGUE = (
    "I think it is good and also bad but mostly {stance}.",
    "I kind of think {stance}.",
)
CLAIM = (
    "One reason is that {reason}.",
    "Another reason is that {reason}.",
    "The most important reason is that {reason}.",
    "To begin with, {reason}.",
    "Also, {reason}.",
    "{reason}, which matters a lot.",
    "A big reason is that {reason}.",
)
CLAIM_VAGUE = (
    "It is just better that way.",
    "This is a good thing for many reasons.",
    "Also {reason} I guess.",
)
EVIDENCE = (
    "For example, {fact}.",
    "According to the article, {fact}.",
    "For instance, {fact}.",
    "One example is that {fact}.",
    "To illustrate, {fact}.",
    "The author gives an example: {fact}.",
    "Research backs this up, because {fact}.",
    "It is also worth knowing that {fact}.",
    "This shows that {reason}.",
    "If you think about it, that means {reason}.",
    "That is strong proof that {reason}.",
    "When this happens, people can see for themselves that {reason}.",
)
EVIDENCE_VAGUE = (
    "Everyone knows this is true.",
    "It is like that for everybody and it is really obvious.",
    "There are a lot of examples of this everywhere.",
    "My friend said so too and he is usually right.",
)
COUNTERCLAIM = (
    "Some people say that {opp_reason}.",
    "Others might argue that {opp_reason}.",
    "It is true that {opp_reason}.",
    "Critics point out that {opp_reason}, and that is a fair concern.",
    "I understand why some people worry that {opp_reason}.",
    "That is a fair point, and it deserves an answer.",
    "Many parents feel the same way.",
    "I can see why someone would think that.",
)
REBUTTAL = (
    "However, {reason}, and that matters more.",
    "Even so, this problem can be solved with good planning.",
    "But that does not change the fact that {reason}.",
    "While that may be true, the benefits are bigger than the problems.",
    "Still, {fact}, so the worry is not as serious as it sounds.",
)
CONCLUDING = (
    "In conclusion, {stance}.",
    "To sum up, {reason} and {reason2}.",
    "That is why I believe {stance}.",
    "For all of these reasons, {stance}.",
    "If we want what is best for students, we should remember that {reason}.",
    "In the end, the question of {subject} comes down to what helps students most.",
    "Those are the reasons I feel so strongly about this.",
    "I hope the people who make this decision will listen to students.",
)
CONCLUDING_VAGUE = (
    "So that is what I think.",
    "That is the end of my essay about {subject}.",
)
# Unannotated filler between elements.
FILLER = (
    "Here is why.",
    "Let me explain.",
    "Now I will talk about the other side.",
    "That is not all.",
    "Think about it for a second.",
    "This brings me to my next point.",
    "There is more to it than that.",
    "I have thought about this a lot.",
    "Let me give you another reason.",
    "Now for my last point.",
)
