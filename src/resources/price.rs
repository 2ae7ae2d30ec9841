//! The Azure Retail Prices API ("Azure Retail Prices REST API", learn.microsoft.com/rest/api/
//! cost-management/retail-prices/azure-retail-prices): a page is `Items` and `NextPageLink`;
//! each item is one meter, of which the tool reads the fields below (the API sends more).

use serde::Deserialize;

/// One meter of the Retail Prices API, the fields the price fold reads.
#[derive(Debug, Clone, Default, PartialEq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct RetailPrice {
    /// The VM size (`Standard_NC24ads_A100_v4`).
    pub arm_sku_name: Option<String>,
    /// The region (`eastus`).
    pub arm_region_name: Option<String>,
    /// "Virtual Machines NCadsA100v4 Series" (" Windows" for Windows meters).
    pub product_name: Option<String>,
    /// "NC24ads A100 v4" (" Spot", " Low Priority").
    pub sku_name: Option<String>,
    /// `Consumption`, `Reservation`, `DevTestConsumption`.
    #[serde(rename = "type")]
    pub kind: Option<String>,
    /// "1 Hour".
    pub unit_of_measure: Option<String>,
    /// The price per unit, in the query's currency.
    pub unit_price: Option<f64>,
}

impl RetailPrice {
    /// The text fields, to bound what one item may hold.
    pub fn texts(&self) -> [Option<&str>; 6] {
        [
            self.arm_sku_name.as_deref(),
            self.arm_region_name.as_deref(),
            self.product_name.as_deref(),
            self.sku_name.as_deref(),
            self.kind.as_deref(),
            self.unit_of_measure.as_deref(),
        ]
    }

    /// The hourly pay-as-you-go price of a VM size in a region, with its size and region:
    /// `None` for a meter that is not one (another `type` or unit, low priority, no size or
    /// region, or no price above zero). Such meters are left out of the price table, never
    /// read as a price of 0.
    pub fn hourly(&self) -> Option<(&str, &str, f64)> {
        let sku = self.arm_sku_name.as_deref().filter(|s| !s.is_empty())?;
        let region = self.arm_region_name.as_deref().filter(|s| !s.is_empty())?;
        let text = |f: &Option<String>, want: &str| f.as_deref().is_some_and(|s| s.eq_ignore_ascii_case(want));
        if !text(&self.kind, "Consumption") || !text(&self.unit_of_measure, "1 Hour") {
            return None;
        }
        if self.sku_name.as_deref().is_some_and(|s| s.contains("Low Priority")) {
            return None;
        }
        let price = self.unit_price.filter(|p| p.is_finite() && *p > 0.0)?;
        Some((sku, region, price))
    }

    /// A Windows meter (`productName` contains " Windows").
    pub fn is_windows(&self) -> bool {
        self.product_name.as_deref().is_some_and(|p| p.contains(" Windows"))
    }

    /// A spot meter (`skuName` ends in " Spot").
    pub fn is_spot(&self) -> bool {
        self.sku_name.as_deref().is_some_and(|s| s.ends_with(" Spot"))
    }
}
