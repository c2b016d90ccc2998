import MainLoop
import ShareSheetGTK

GLibMainLoop.run { 0 }
