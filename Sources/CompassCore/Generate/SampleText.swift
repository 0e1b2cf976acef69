/// Word lists for synthetic histories, with accents and emoji so text handling is exercised.
enum SampleText {
    static let firstNames = ["Maya", "Pat", "Jordan", "Alex", "Sam", "Riley", "José", "Zoë", "Noah", "Ava", "Liam", "Chloé", "Mateo", "Aaliyah"]
    static let lastNames = ["Lopez", "Nguyen", "Smith", "Okafor", "García", "Kowalski", "Chen", "Johnson", "O'Brien", "Müller"]
    static let schools = [
        "UCLA", "Arizona State", "Stanford", "University of Oregon", "Texas A&M", "Duke", "Boston College",
        "Cal Poly", "San Diego State", "Gonzaga", "Université Laval", "Notre Dame", "Rice", "Vanderbilt",
    ]
    static let statuses = ["interested", "contacted", "visit_scheduled", "offer_received", "committed", "not_interested"]
    static let docTypes = ["transcript", "highlight_reel", "resume", "test_scores", "medical"]
    static let documentTitles = ["Fall transcript", "Highlight reel 2025", "Athletic résumé", "SAT scores", "Physical form", "Coach letter ⚽"]
    static let subjects = [
        "Camp invite", "Follow-up after showcase", "Questions about the program", "Official visit details",
        "Thanks for the call!", "Game film 🎥", "Summer schedule", "Scholarship conversation", "Re: recruiting questionnaire",
        "Unofficial visit — campus tour",
    ]
    static let sentences = [
        "Coach asked about my summer tournament schedule.", "We talked about the roster needs for next year.",
        "He wants updated game film before the fall.", "Great conversation about academics and the engineering program.",
        "She mentioned they are recruiting two players at my position.", "Invited me to the prospect camp in June 🔥.",
        "Asked for my unofficial transcript and test scores.", "The staff will be at the showcase in Phoenix.",
        "Follow up in two weeks after the coaching meeting.", "Discussed a possible official visit in October.",
        "Mentioned walk-on opportunities, no scholarship yet.", "Très sympa — very friendly staff.",
    ]
    static let attachmentKinds: [(String, (String, String))] = [
        ("schedule", ("application/pdf", "pdf")), ("photo", ("image/jpeg", "jpg")), ("stats", ("image/png", "png")),
        ("notes", ("text/plain", "txt")), ("letter", ("application/vnd.openxmlformats-officedocument.wordprocessingml.document", "docx")),
    ]
}
