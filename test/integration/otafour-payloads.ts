/**
 * The fourth OTA's search-box suggestions (`GetUnifiedSuggestResult`), in the `ViewModelList` shape
 * public clients read (see test/fixtures/README.md): a city, an area, a hotel found by its result
 * URL, a hotel found by `IsHotel`, and a landmark.
 */
export const OTAFOUR_SUGGEST = {
  ViewModelList: [
    { ObjectId: 16440, ObjectTypeId: 1, IsHotel: false, CityId: 16440, Name: 'Da Nang', DisplayNames: { Name: 'Da Nang', GeoHierarchyName: 'Vietnam', CategoryName: 'City' }, ResultUrl: '/search?city=16440' },
    { ObjectId: 2454174, ObjectTypeId: 7, IsHotel: false, CityId: 16440, Name: 'Example Riverside Hotel', DisplayNames: { Name: 'Example Riverside Hotel', GeoHierarchyName: 'Da Nang, Vietnam', CategoryName: 'Hotel' }, ResultUrl: '/search?selectedproperty=2454174&city=16440' },
    { ObjectId: 88123, ObjectTypeId: 32, IsHotel: true, CityId: 16440, Name: 'Riverside Suites Da Nang', CityName: 'Da Nang', DisplayNames: { Name: 'Riverside Suites Da Nang', CategoryName: 'Hotel' }, ResultUrl: '', Latitude: 16.06, Longitude: 108.22 },
    { ObjectId: 27561, ObjectTypeId: 4, IsHotel: false, CityId: 16440, Name: 'My Khe Beach', DisplayNames: { Name: 'My Khe Beach', GeoHierarchyName: 'Da Nang, Vietnam', CategoryName: 'Area' }, ResultUrl: '/search?area=27561&city=16440' },
  ],
};
