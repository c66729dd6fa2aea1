import FlipbookGeometry
import Yams
