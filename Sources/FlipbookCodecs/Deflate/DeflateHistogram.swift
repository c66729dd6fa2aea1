/// How many times each symbol occurs in a run of tokens: what a block's Huffman codes, and
/// so its size, depend on.
struct DeflateHistogram {
    var litlen = [UInt32](repeating: 0, count: DeflateAlphabet.litlenCount)
    var distance = [UInt32](repeating: 0, count: DeflateAlphabet.distanceCount)
    /// Extra bits of all lengths and distances: the same under any code.
    var extraBits = 0

    init() {}

    init(_ tokens: ArraySlice<DeflateToken>) {
        for token in tokens { add(token) }
    }

    mutating func add(_ token: DeflateToken) {
        litlen[Int(token.litlen)] &+= 1
        if token.isMatch {
            distance[Int(token.distance)] &+= 1
            extraBits += token.extraBits
        }
    }

    mutating func remove(_ token: DeflateToken) {
        litlen[Int(token.litlen)] &-= 1
        if token.isMatch {
            distance[Int(token.distance)] &-= 1
            extraBits -= token.extraBits
        }
    }

    /// `whole` less `self`: the counts of the rest of a range.
    func complement(in whole: DeflateHistogram) -> DeflateHistogram {
        var rest = whole
        for i in litlen.indices { rest.litlen[i] &-= litlen[i] }
        for i in distance.indices { rest.distance[i] &-= distance[i] }
        rest.extraBits -= extraBits
        return rest
    }
}
