import Foundation
import Testing

@testable import Social

/// Each service's count: links at their fixed length, emoji and CJK by the service's rules.
@Suite("Character counting")
struct CountingTests {
    private func x(_ text: String) -> Int { CharacterCounter.count(text, rule: .xWeighted) }
    private func mastodon(_ text: String) -> Int { CharacterCounter.count(text, rule: .mastodon(urlLength: 23)) }
    private func weibo(_ text: String) -> Int { CharacterCounter.count(text, rule: .weibo) }

    @Test("X: Latin 1 each, a link 23 however long, trailing punctuation outside the link")
    func xLinks() {
        #expect(x("hello") == 5)
        #expect(x("https://example.com/a/very/long/path/that/goes/on/and/on/for/ever") == 23)
        #expect(x("Look: https://x.y/z") == 6 + 23)
        #expect(x("see http://a.example/b, then https://c.example.") == 4 + 23 + 7 + 23 + 1)
        #expect(x("www.example.com/page") == 23)
    }

    @Test("X: CJK counts 2 (twitter-text v3 weights), emoji sequences 2, NFC first")
    func xWeights() {
        #expect(x("你好") == 4)
        #expect(x("こんにちは") == 10)
        #expect(x("😀") == 2)
        #expect(x("👨‍👩‍👧‍👦") == 2)  // one ZWJ family
        #expect(x("👍🏽") == 2)  // with a skin tone
        #expect(x("🇯🇵") == 2)  // a flag
        #expect(x("❤️") == 2)  // a text symbol with VS16
        #expect(x("1️⃣") == 2)  // a keycap
        #expect(x("e\u{301}") == 1)  // decomposed é, composed by NFC
        #expect(x("\u{2014}") == 1)  // an em dash is in U+2010–U+201F
        #expect(x("€") == 2)  // U+20AC is outside the ranges
    }

    @Test("X: 280 fits, 281 does not; 140 CJK fit, 141 do not")
    func xLimit() {
        let composer = SocialComposer(service: .twitter, configuration: .empty)
        #expect(!composer.count(String(repeating: "a", count: 280)).isOverLimit)
        #expect(composer.count(String(repeating: "a", count: 281)).isOverLimit)
        #expect(!composer.count(String(repeating: "漢", count: 140)).isOverLimit)
        #expect(composer.count(String(repeating: "漢", count: 141)).isOverLimit)
        #expect(composer.count("hi").description == "2/280")
    }

    @Test("Mastodon: grapheme clusters, links 23, remote mentions as @user")
    func mastodonRules() {
        #expect(mastodon("hello") == 5)
        #expect(mastodon("你好") == 2)
        #expect(mastodon("👨‍👩‍👧‍👦") == 1)
        #expect(mastodon("🇯🇵") == 1)
        #expect(mastodon("https://example.com/a/very/long/path/that/goes/on/and/on") == 23)
        #expect(mastodon("@alice@example.social hi") == "@alice hi".count)
        #expect(mastodon("mail bob@example.com") == "mail bob@example.com".count)  // not a mention
        #expect(mastodon("www.example.com") == 15)  // no scheme: counted as typed
    }

    @Test("Mastodon: 500 fits, 501 is refused before anything is sent; the instance limit is settable")
    func mastodonLimit() {
        let composer = SocialComposer(service: .mastodon, configuration: .empty)
        #expect(!composer.count(String(repeating: "😀", count: 500)).isOverLimit)
        #expect(composer.count(String(repeating: "a", count: 501)).isOverLimit)
        #expect(composer.problem(withText: String(repeating: "a", count: 501))?.contains("Mastodon takes 500") == true)
        let roomy = SocialComposer(service: .mastodon, configuration: .init(["mastodon": ["max-characters": "1000"]]))
        #expect(roomy.count("x").limit == 1000)
    }

    @Test("Weibo: CJK 1, two Latin characters 1, beyond the BMP 2, a link 10")
    func weiboRules() {
        #expect(weibo("你好") == 2)
        #expect(weibo("ab") == 1)
        #expect(weibo("abc") == 2)
        #expect(weibo("😀") == 2)
        #expect(weibo("看 https://example.com/a/very/long/path") == 2 + 10)
        let composer = SocialComposer(service: .weibo, configuration: .empty)
        #expect(!composer.count(String(repeating: "字", count: 140)).isOverLimit)
        #expect(composer.count(String(repeating: "字", count: 141)).isOverLimit)
        #expect(!composer.count(String(repeating: "a", count: 280)).isOverLimit)
    }

    @Test("Facebook counts characters and links in full; Flickr and Vimeo have no limit")
    func others() {
        #expect(SocialComposer(service: .facebook, configuration: .empty).count("https://example.com").used == 19)
        #expect(SocialComposer(service: .flickr, configuration: .empty).count(String(repeating: "a", count: 100_000)).limit == nil)
    }
}
