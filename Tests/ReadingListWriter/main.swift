import Foundation
import ReadingList

// reading-list-writer DATABASE PREFIX COUNT
//
// Adds COUNT pages (PREFIX0 … PREFIX<COUNT-1>) to the reading list in DATABASE, one
// `addItem` (one transaction) each, the way separate shares from separate programs arrive.
// Waits for a line on standard input first, so a test can start two writers at the same moment.
// Exits 0 when all were added; otherwise prints the first error and exits with its status.
let arguments = CommandLine.arguments
guard arguments.count == 4, let count = Int(arguments[3]) else {
    FileHandle.standardError.write(Data("usage: reading-list-writer DATABASE PREFIX COUNT\n".utf8))
    exit(64)
}
let readingList = ReadingList(databaseURL: URL(fileURLWithPath: arguments[1]))
_ = readLine()
for number in 0..<count {
    do {
        try readingList.addItem(url: URL(string: "\(arguments[2])\(number)")!, title: "Page \(number)")
    } catch {
        FileHandle.standardError.write(Data("reading-list-writer: \(error)\n".utf8))
        exit(1)
    }
}
