import Foundation
import ShareSheet
import Sharing

/// The terminal sheet's steps that change what is sent (SPEC §13), typed at the pick prompt
/// or picked by name in the arrow-key picker: each asks in lines, sets the controller's
/// `itemChoices`, and the sheet is drawn again.
extension TerminalPresenter {
    /// Runs `step` and draws the sheet again with what it changed.
    func run(_ step: ChoiceStep, controller: ActivityViewController, numbered: Bool, presentation id: Int) async {
        switch step {
        case .items: await chooseItems(controller: controller, presentation: id)
        case .size: await chooseSize(controller: controller, presentation: id)
        case .location: toggleLocation(controller: controller)
        case .edit: await editText(controller: controller, presentation: id)
        }
        guard isCurrent(id) else { return }
        output.write("\n" + sheetText(controller, numbered: numbered))
    }

    /// The sheet as drawn for `controller` now: the items (those left out marked), the rows,
    /// and what is sent.
    func sheetText(_ controller: ActivityViewController, numbered: Bool) -> String {
        let sheet = controller.sheet
        return SheetScreen.render(
            sheet, items: controller.activityItems, style: style, numbered: numbered, names: names,
            leftOut: controller.itemChoices.leftOut)
            + ChoiceStep.lines(for: sheet.itemKinds, choices: controller.itemChoices, style: style)
            + (ChoiceStep.offered(for: sheet.itemKinds).isEmpty ? "" : "\n")
    }

    private func chooseItems(controller: ActivityViewController, presentation id: Int) async {
        let count = controller.activityItems.count
        var text = ""
        for (index, item) in controller.activityItems.enumerated() {
            let name = ItemLabel.name(of: item) ?? "item \(index + 1)"
            let mark = controller.itemChoices.leftOut.contains(index) ? "[ ]" : "[x]"
            text += "  \(mark) " + style.bold(String(index + 1)) + "  " + name.truncated(to: max(8, style.width - 10)) + "\n"
        }
        output.write(text)
        while isCurrent(id) {
            guard let line = await ask("Send which items? Numbers such as 1,3 or 2-4 (Enter sends all \(count)): ", presentation: id)
            else { return }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if typed.isEmpty {
                controller.itemChoices.leftOut = []
                return
            }
            do {
                let leftOut = try ItemSelection.leftOut(keeping: typed, of: count)
                controller.itemChoices.leftOut = leftOut
                return
            } catch let error as ShareError {
                output.write(InterfaceScreen.problemLine(error.message, style: style))
            } catch {
                return
            }
        }
    }

    private func chooseSize(controller: ActivityViewController, presentation id: Int) async {
        let current = controller.itemChoices.imageSize ?? .original
        let removing = controller.itemChoices.keepsLocation != true
        output.write(style.dim("Working out the sizes…") + "\n")
        var text = ""
        let labels = ImageSize.allCases.map { size in size.title + (size.longEdge.map { ", \($0) px" } ?? "") }
        let width = labels.map(\.count).max() ?? 0
        for (number, size) in ImageSize.allCases.enumerated() {
            var line = "  " + style.bold(String(number + 1)) + "  " + labels[number].padded(to: width)
            if let preparer = controller.itemPreparer,
                let bytes = await preparer.byteCount(of: sentPhotos(of: controller), at: size, removingLocation: removing)
            {
                line += "  " + ByteCountFormat.string(Int64(bytes)).padded(to: 9)
            }
            if size == current { line += style.dim("  (now)") }
            text += line + "\n"
        }
        guard isCurrent(id) else { return }
        output.write(text)
        while isCurrent(id) {
            guard let line = await ask("Photo size, by number or name (Enter keeps \(current.title)): ", presentation: id) else {
                return
            }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if typed.isEmpty { return }
            let sizes = ImageSize.allCases
            if let number = Int(typed), sizes.indices.contains(number - 1) {
                controller.itemChoices.imageSize = sizes[number - 1]
                return
            }
            if let size = ImageSize(named: typed) {
                controller.itemChoices.imageSize = size
                return
            }
            output.write(InterfaceScreen.problemLine("no size '\(typed)': type 1 to 4, or original, large, medium or small", style: style))
        }
    }

    /// The photos that go, as the sheet's placeholders give them, for the sizes shown.
    private func sentPhotos(of controller: ActivityViewController) -> [Any] {
        let kinds = controller.sheet.itemKinds
        return controller.activityItems.enumerated().filter { index, _ in
            !controller.itemChoices.leftOut.contains(index) && kinds.indices.contains(index) && kinds[index].isImage
        }.map(\.element)
    }

    private func toggleLocation(controller: ActivityViewController) {
        let keeping = controller.itemChoices.keepsLocation != true
        controller.itemChoices.keepsLocation = keeping ? true : nil
        output.write(
            (keeping
                ? "Location and camera serial now go with photos that leave this computer."
                : "Location and camera serial are now removed from photos that leave this computer.") + "\n")
    }

    private func editText(controller: ActivityViewController, presentation id: Int) async {
        let texts = controller.activityItems.enumerated().compactMap { index, item in
            (item as? String).map { (index: index, text: controller.itemChoices.editedTexts[index] ?? $0) }
        }
        guard var chosen = texts.first else { return }
        if texts.count > 1 {
            for (number, entry) in texts.enumerated() {
                output.write("  " + style.bold(String(number + 1)) + "  " + ItemLabel.quoted(entry.text) + "\n")
            }
            guard let line = await ask("Edit which text? (Enter for 1): ", presentation: id) else { return }
            let typed = line.trimmingCharacters(in: .whitespaces)
            if let number = Int(typed), texts.indices.contains(number - 1) { chosen = texts[number - 1] }
        }
        let edited: String?
        if let editor {
            switch await editor.edit(chosen.text) {
            case .success(let text): edited = text
            case .failure(let problem):
                output.write(InterfaceScreen.problemLine(problem.message, style: style))
                edited = nil
            }
        } else {
            output.write(style.dim("Now: ") + ItemLabel.quoted(chosen.text) + "\n")
            edited = await askLines("Type the new text; end with a line holding only a dot:\n", presentation: id)
        }
        guard let edited, isCurrent(id) else { return }
        // An editor leaves a final line end the person did not mean to send.
        let text = edited.hasSuffix("\n") && !chosen.text.hasSuffix("\n") ? String(edited.dropLast()) : edited
        controller.itemChoices.editedTexts[chosen.index] = text
    }
}
